/* global window, document */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDuration, formatTime } from './api.js';

const SVG = 'http://www.w3.org/2000/svg';
let renders = 0;

/** The flow panel: diagram with the live state and per-state analytics, variables, timeline, problems. */
export function FlowPanel({ bot, flowId, onFlow, detail }) {
  const flow = bot.flows.find((f) => f.id === flowId) ?? bot.flows[0];
  const doc = detail?.doc;
  const current = doc && doc.flowId === flow?.id ? doc.state : null;
  return html`
    <section class="flow-panel" aria-label="flow panel">
      <div class="pane-title">
        Flow
        ${
          bot.flows.length > 1
            ? html`<select value=${flow?.id} onChange=${(e) => onFlow(e.target.value)}>
                ${bot.flows.map((f) => html`<option value=${f.id}>${f.id}</option>`)}
              </select>`
            : html`<span class="flow-id">${flow?.id}</span>`
        }
        ${flow ? html`<span class="muted">v${flow.version}${flow.file ? ` · ${short(flow.file)}` : ''}</span>` : null}
        ${current ? html`<span class="badge state live" data-testid="current-state">● ${current}</span>` : null}
      </div>
      ${bot.error ? html`<${LoadError} error=${bot.error} />` : null}
      ${
        flow?.mermaid
          ? html`<${Diagram}
              text=${flow.mermaid}
              current=${current}
              analytics=${flow.analytics}
              states=${flow.states}
            />`
          : html`<p class="muted">This flow is a hand-written machine: no diagram.</p>`
      }
      <div class="flow-details">
        <${Variables} doc=${doc} />
        <${Timeline} entries=${detail?.timeline ?? []} />
        <${Problems} flow=${flow} bot=${bot} />
      </div>
    </section>
  `;
}

function LoadError({ error }) {
  return html`<div class="load-error" role="alert" data-testid="load-error">
    <b>The bot could not be reloaded; the previous version keeps running.</b>
    <pre>${error}</pre>
  </div>`;
}

function Diagram({ text, current, analytics, states }) {
  const host = useRef(null);
  const [svgReady, setSvgReady] = useState(0);
  const [failure, setFailure] = useState(null);

  useEffect(() => {
    let cancelled = false;
    const draw = async () => {
      const mermaid = await mermaidReady();
      const { svg } = await mermaid.render(`flow-diagram-${++renders}`, text);
      if (cancelled || !host.current) return;
      host.current.innerHTML = svg;
      setFailure(null);
      setSvgReady((n) => n + 1);
    };
    draw().catch((e) => !cancelled && setFailure(String(e?.message ?? e)));
    return () => {
      cancelled = true;
    };
  }, [text]);

  useEffect(() => {
    const svg = host.current?.querySelector('svg');
    if (!svg) return;
    decorate(svg, states, current, analytics ?? {});
  }, [svgReady, current, JSON.stringify(analytics)]);

  return html`<div class="diagram-wrap">
    ${failure ? html`<pre class="load-error">${failure}</pre>` : null}
    <div class="diagram" ref=${host} data-testid="diagram"></div>
    <div class="legend">
      ● current state · <b>n×</b> visits · <b>↓n</b> drop-offs · <b>med</b> median time in state
    </div>
  </div>`;
}

/** Marks the current state and writes each state's figures under its box. */
function decorate(svg, states, current, analytics) {
  for (const old of svg.querySelectorAll('.sb-stats')) old.remove();
  for (const node of svg.querySelectorAll('.sb-current')) node.classList.remove('sb-current');
  // The diagram is scaled to the panel: size the figures so they read at 12 px on screen.
  const shown = svg.getBoundingClientRect().width;
  const drawn = svg.viewBox?.baseVal?.width || shown;
  const fontSize = Math.min(30, Math.max(10, (12 * drawn) / Math.max(shown, 1)));
  for (const name of states) {
    const node = nodeOf(svg, name);
    if (!node) continue;
    node.setAttribute('data-state', name);
    if (name === current) node.classList.add('sb-current');
    const figures = analytics[name];
    if (!figures) continue;
    const box = node.getBBox();
    const label = `${figures.visits}× · ↓${figures.dropOffs} · med ${figures.medianMs == null ? '–' : formatDuration(figures.medianMs)}`;
    const group = document.createElementNS(SVG, 'g');
    group.setAttribute('class', 'sb-stats');
    const text = document.createElementNS(SVG, 'text');
    text.setAttribute('x', String(box.x + box.width / 2));
    text.setAttribute('y', String(box.y + box.height + fontSize + 2));
    text.setAttribute('text-anchor', 'middle');
    text.setAttribute('font-size', String(fontSize));
    text.textContent = label;
    const bg = document.createElementNS(SVG, 'rect');
    group.append(bg, text);
    node.append(group);
    const t = text.getBBox();
    bg.setAttribute('x', String(t.x - 3));
    bg.setAttribute('y', String(t.y - 1));
    bg.setAttribute('width', String(t.width + 6));
    bg.setAttribute('height', String(t.height + 2));
    bg.setAttribute('rx', '3');
  }
  // Keep the live state (and its figures) in view.
  svg.querySelector('.sb-current')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

/**
 * The Mermaid node id of a state: the same rule as `mermaidStateId` of
 * src/flows/flow-to-mermaid.ts (distinct for any id, keywords and -/_ included).
 */
function mermaidStateId(name) {
  return `s_${name
    .replace(/_/g, '__')
    .replace(/-/g, '_h')
    .replace(/[^A-Za-z0-9_]/g, (c) => `_x${c.charCodeAt(0).toString(16)}_`)}`;
}

/** The diagram node of a state (Mermaid names state nodes `state-<id>-<n>`). */
function nodeOf(svg, name) {
  const id = mermaidStateId(name);
  for (const node of svg.querySelectorAll('g.node')) {
    if (node.getAttribute('data-id') === id) return node;
    const m = /(?:^|-)state-([A-Za-z0-9_]+)-\d+$/.exec(node.id);
    if (m && m[1] === id) return node;
  }
  return null;
}

let ready;
function mermaidReady() {
  ready ??= new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (window.mermaid) {
        window.mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: 'neutral',
          state: { useMaxWidth: true },
        });
        resolve(window.mermaid);
      } else if (Date.now() - started > 60_000)
        reject(new Error('the diagram library did not load'));
      else window.setTimeout(check, 50);
    };
    check();
  });
  return ready;
}

function Variables({ doc }) {
  const vars = doc ? Object.entries(doc.vars ?? {}) : [];
  return html`<div class="detail-box">
    <div class="box-title">Variables</div>
    ${
      doc
        ? html`<table class="vars" data-testid="variables">
            <tr>
              <th>flow</th>
              <td>${doc.flowId} v${doc.flowVersion}</td>
            </tr>
            <tr>
              <th>state</th>
              <td>${doc.state || '–'}${doc.ended ? ' (ended)' : ''}</td>
            </tr>
            <tr>
              <th>humanOwned</th>
              <td>${String(doc.humanOwned)}</td>
            </tr>
            ${
              doc.heldSends > 0
                ? html`<tr>
                    <th>held sends</th>
                    <td>${doc.heldSends}</td>
                  </tr>`
                : null
            }
            ${vars.map(
              ([k, v]) =>
                html`<tr>
                  <th>${k}</th>
                  <td>${JSON.stringify(v)}</td>
                </tr>`,
            )}
          </table>`
        : html`<p class="muted">No conversation yet.</p>`
    }
  </div>`;
}

function Timeline({ entries }) {
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [entries.length]);
  return html`<div class="detail-box timeline-box">
    <div class="box-title">Timeline</div>
    <ol class="timeline" ref=${list} data-testid="timeline">
      ${entries.map(
        (e) =>
          html`<li key=${e.seq} class=${`tl tl-${e.kind}${e.ok === false ? ' tl-bad' : ''}`}>
            <span class="tl-time">${formatTime(e.at)}</span>
            <span class="tl-kind">${e.kind}</span>
            <span class="tl-text">${e.text}</span>
            ${e.outcome ? html`<span class="tl-outcome">${e.outcome}</span>` : null}
          </li>`,
      )}
    </ol>
  </div>`;
}

function Problems({ flow, bot }) {
  const warnings = flow?.warnings ?? [];
  return html`<div class="detail-box">
    <div class="box-title">Validation</div>
    ${bot.error ? html`<pre class="problem error" data-testid="validation-error">${bot.error}</pre>` : null}
    ${warnings.map((w) => html`<pre class="problem warning">${w}</pre>`)}
    ${!bot.error && warnings.length === 0 ? html`<p class="ok">✓ no errors or warnings</p>` : null}
    ${
      bot.lastReload
        ? html`<p class="muted">
            Reloaded ${bot.generation}× · last: ${bot.lastReload.kept} kept,
            ${bot.lastReload.restarted.length} restarted, ${bot.lastReload.versionRule} by version
            rule
          </p>`
        : null
    }
  </div>`;
}

function short(file) {
  const parts = file.split('/');
  return parts.slice(-2).join('/');
}
