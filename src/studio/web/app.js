/* global document, EventSource, window */
import { html, render } from 'htm/preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { getJSON, postJSON } from './api.js';
import { FlowPanel } from './flow-panel.js';
import { Icon } from './icons.js';
import { Inbox, TeammateBox } from './inbox.js';
import { Phone } from './phone.js';

function App() {
  const [state, setState] = useState(null);
  const [selected, setSelected] = useState(null);
  const [detail, setDetail] = useState(null);
  const [flowId, setFlowId] = useState(null);
  const [error, setError] = useState(null);
  const [live, setLive] = useState(false);
  const selectedRef = useRef(null);
  selectedRef.current = selected;

  const refresh = useCallback(async () => {
    const next = await getJSON('/state');
    setState(next);
    const phone = selectedRef.current ?? next.customers[0]?.phone ?? null;
    if (selectedRef.current === null && phone !== null) setSelected(phone);
    if (phone !== null) setDetail(await getJSON(`/customers/${encodeURIComponent(phone)}`));
  }, []);

  // One refresh at a time; a change during a refresh asks for one more.
  const pending = useRef({ running: false, again: false });
  const requestRefresh = useCallback(() => {
    const p = pending.current;
    if (p.running) return void (p.again = true);
    p.running = true;
    refresh()
      .catch((e) => setError(String(e.message ?? e)))
      .finally(() => {
        p.running = false;
        if (p.again) {
          p.again = false;
          requestRefresh();
        }
      });
  }, [refresh]);

  useEffect(() => {
    requestRefresh();
    const events = new EventSource('/api/events');
    events.addEventListener('hello', () => setLive(true));
    events.addEventListener('change', () => requestRefresh());
    events.onerror = () => setLive(false);
    // The window's countdown moves with the wall clock too.
    const timer = window.setInterval(requestRefresh, 15_000);
    return () => {
      events.close();
      window.clearInterval(timer);
    };
  }, []);

  useEffect(() => {
    if (selected !== null) requestRefresh();
  }, [selected]);

  const act = async (fn) => {
    try {
      setError(null);
      await fn();
    } catch (e) {
      setError(String(e.message ?? e));
    }
    requestRefresh();
  };
  if (state === null) return html`<p class="loading">Loading switchboard studio…</p>`;
  const customer = state.customers.find((c) => c.phone === selected) ?? state.customers[0];
  const path = (suffix) => `/customers/${encodeURIComponent(customer.phone)}${suffix}`;
  const docFlow = detail?.doc?.flowId;
  // Attached to a production store: read-only, no control that sends or changes state.
  const readOnly = state.mode === 'attach';
  const shown = detail?.customer?.phone === customer?.phone ? detail : null;

  return html`
    <header class="top">
      <div class="brand">switchboard <b>studio</b></div>
      <div class="bot-name">
        ${state.bot.name} · ${state.bot.flows.map((f) => `${f.id} v${f.version}`).join(', ')}
      </div>
      ${
        readOnly
          ? html`<${Attached} attached=${state.attached} now=${state.clock.now} />`
          : html`<${Clock}
              now=${state.clock.now}
              onAdvance=${(by) => act(() => postJSON('/clock/advance', { by }))}
            />`
      }
      <span
        class=${`live-dot${live ? ' on' : ''}`}
        title=${live ? 'live updates on' : 'reconnecting'}
        >● live</span
      >
    </header>
    <main class="layout">
      <aside class="left">
        <${Inbox}
          customers=${state.customers}
          selected=${customer?.phone}
          onSelect=${(phone) => setSelected(phone)}
          onAdd=${
            readOnly
              ? null
              : () =>
                  act(async () => {
                    const added = await postJSON('/customers', {});
                    setSelected(added.phone);
                  })
          }
        />
        <${TeammateBox}
          customer=${customer}
          detail=${shown}
          readOnly=${readOnly}
          onTakeOver=${() => act(() => postJSON(path('/takeover')))}
          onRelease=${() => act(() => postJSON(path('/release')))}
          onReply=${(text) => act(() => postJSON(path('/reply'), { text }))}
        />
      </aside>
      <${Phone}
        customer=${customer}
        detail=${shown}
        now=${state.clock.now}
        error=${error}
        readOnly=${readOnly}
        onSend=${(message) => act(() => postJSON(path('/send'), message))}
      />
      <${FlowPanel}
        bot=${state.bot}
        flowId=${flowId ?? docFlow ?? state.bot.entry}
        onFlow=${setFlowId}
        detail=${shown}
      />
    </main>
  `;
}

/** Attach mode's header: what the page reads, and that it only reads. */
function Attached({ attached, now }) {
  const count = `${attached.conversations} conversation${attached.conversations === 1 ? '' : 's'}`;
  const details = [
    attached.truncated ? `${count} (the first ones only: raise --limit)` : count,
    ...(attached.unreadable.length > 0 ? [`${attached.unreadable.length} unreadable`] : []),
    new Date(now).toLocaleString(),
  ];
  return html`<div class="attached" data-testid="attached">
    <span class="badge read-only" title="nothing is sent, taken over or changed from this page"
      >read-only</span
    >
    <span class="attached-store">${attached.store}</span>
    <span class="muted">· ${details.join(' · ')}</span>
  </div>`;
}

function Clock({ now, onAdvance }) {
  const [custom, setCustom] = useState('');
  return html`<form
    class="clock"
    data-testid="clock"
    onSubmit=${(e) => {
      e.preventDefault();
      if (custom.trim() !== '') onAdvance(custom.trim());
      setCustom('');
    }}
  >
    <span class="clock-now" data-testid="clock-now" title="the sandbox and the bot share this clock"
      ><${Icon} name="clock" size=${15} /> ${new Date(now).toLocaleString()}</span
    >
    <button type="button" onClick=${() => onAdvance('1h')}>+1 h</button>
    <button type="button" onClick=${() => onAdvance('25h')}>+25 h</button>
    <input
      aria-label="advance the clock by"
      placeholder="e.g. 31m"
      size="6"
      value=${custom}
      onInput=${(e) => setCustom(e.target.value)}
    />
    <button type="submit">Advance</button>
  </form>`;
}

render(html`<${App} />`, document.getElementById('root'));
