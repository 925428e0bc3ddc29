import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDuration, formatTime } from './api.js';
import { Composer } from './composer.js';
import { Icon } from './icons.js';

const TICKS = { queued: '◷', sent: '✓', delivered: '✓✓', read: '✓✓', failed: '⚠' };

/** The customer's phone: header with the window's state, the chat, and the composer. */
export function Phone({ customer, detail, now, onSend, error, readOnly }) {
  const scroller = useRef(null);
  const [sheet, setSheet] = useState(null);
  const messages = detail?.messages ?? [];
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, customer?.phone]);
  if (!customer)
    return html`<section class="phone"><p class="empty">No customer selected</p></section>`;
  const tap = (option, list) => {
    setSheet(null);
    if (readOnly) return;
    onSend({ type: 'tap', optionId: option.optionId, title: option.title, list });
  };
  return html`
    <section class="phone" aria-label="customer phone">
      <header class="phone-head">
        <div class="avatar">${initials(customer.name)}</div>
        <div>
          <div class="phone-name">${customer.name}</div>
          <div class="phone-sub">${customer.phone}</div>
        </div>
        <${WindowBadge} window=${detail?.window ?? customer.window} now=${now} />
      </header>
      ${
        detail?.humanOwned
          ? html`<div class="owned-strip">A teammate owns this chat: the bot stays quiet</div>`
          : null
      }
      <div class="chat" ref=${scroller} data-testid="chat">
        ${
          messages.length === 0
            ? html`<p class="chat-hint">
                ${readOnly ? "No messages in this conversation's journal." : 'Say hi to start the conversation.'}
              </p>`
            : messages.map(
                (m) => html`<${Bubble} key=${m.id} m=${m} onTap=${tap} onList=${setSheet} />`,
              )
        }
      </div>
      ${sheet ? html`<${ListSheet} message=${sheet} onTap=${tap} onClose=${() => setSheet(null)} />` : null}
      ${error ? html`<div class="phone-error" role="alert">${error}</div>` : null}
      ${
        readOnly
          ? html`<div class="read-only-strip" data-testid="read-only">
              Read-only: the studio is attached to a production store and never sends
            </div>`
          : html`<${Composer} key=${customer.phone} onSend=${onSend} />`
      }
    </section>
  `;
}

function WindowBadge({ window, now }) {
  if (!window) return null;
  const left = window.closesAt === undefined ? undefined : window.closesAt - now;
  const text = {
    none: 'window: no message yet',
    open: `window open · ${formatDuration(left)} left`,
    closing: `window closing · ${formatDuration(left)} left`,
    closed: 'window closed · templates only',
  }[window.state];
  return html`<span class=${`window window-${window.state}`} data-testid="window">${text}</span>`;
}

function Bubble({ m, onTap, onList }) {
  if (m.kind === 'notice') return html`<div class="notice" data-testid="notice">${m.text}</div>`;
  if (m.kind === 'inbound')
    return html`<div class="row row-in">
      <div class="bubble in">${inbound(m)}<${Meta} m=${m} /></div>
    </div>`;
  const v = m.view;
  const interactive = v.type === 'buttons' || v.type === 'list';
  return html`
    <div class="row row-out">
      <div class=${`bubble out${m.teammate ? ' teammate' : ''}`} data-testid="bot-message">
        ${m.teammate ? html`<div class="from-teammate">Teammate</div>` : null} ${outbound(v, m)}
        <${Meta} m=${m} />
        ${
          interactive && v.type === 'buttons'
            ? html`<div class="buttons">
                ${v.options.map(
                  (o) =>
                    html`<button class="reply-button" onClick=${() => onTap(o, false)}>
                      ${o.title}
                    </button>`,
                )}
              </div>`
            : null
        }
        ${
          interactive && v.type === 'list'
            ? html`<div class="buttons">
                <button class="reply-button list-open" onClick=${() => onList(m)}>
                  ☰ ${v.button ?? 'Options'}
                </button>
              </div>`
            : null
        }
      </div>
    </div>
  `;
}

function Meta({ m }) {
  const tick = m.kind === 'outbound' ? (TICKS[m.status] ?? '') : '';
  return html`<span class="meta">
    ${formatTime(m.at)}
    ${
      tick
        ? html` <span
            class=${`tick tick-${m.status}`}
            title=${m.status + (m.failureCode ? `: ${m.failureCode}` : '')}
            data-testid="tick"
            >${tick}</span
          >`
        : null
    }
    ${m.failureCode ? html` <span class="fail">${m.failureCode}</span>` : null}
  </span>`;
}

function ListSheet({ message, onTap, onClose }) {
  const sections = message.sections ?? [{ title: '', rows: message.view.options }];
  return html`
    <div class="sheet" role="dialog" aria-label=${message.view.button ?? 'list'}>
      <div class="sheet-head">
        <button class="sheet-close" onClick=${onClose} aria-label="close">✕</button>
        <span>${message.view.button ?? 'Options'}</span>
      </div>
      ${sections.map(
        (s) =>
          html`<div class="sheet-section">
            ${s.title ? html`<div class="sheet-title">${s.title}</div>` : null}
            ${s.rows.map(
              (r) =>
                html`<button class="sheet-row" onClick=${() => onTap(r, true)}>
                  <span class="row-title">${r.title}</span>
                  ${r.description ? html`<span class="row-desc">${r.description}</span>` : null}
                </button>`,
            )}
          </div>`,
      )}
    </div>
  `;
}

function outbound(v, m) {
  switch (v.type) {
    case 'text':
      return html`<div class="text">${v.text}</div>`;
    case 'buttons':
    case 'list':
      return html`${v.header ? html`<div class="header">${v.header}</div>` : null}
        <div class="text">${v.text}</div>
        ${v.footer ? html`<div class="footer">${v.footer}</div>` : null}`;
    case 'template':
      return html`<div class="template">
        <div class="template-name">
          <${Icon} name="template" size=${14} /> Template <b>${v.name}</b> (${v.language})
        </div>
        ${m.templateText ? html`<div class="text">${m.templateText}</div>` : null}
        ${
          v.parameters.length > 0
            ? html`<ol class="template-params">
                ${v.parameters.map((p) => html`<li>${p}</li>`)}
              </ol>`
            : html`<div class="footer">no parameters</div>`
        }
      </div>`;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
      return html`<div class="media-card">
          <div class="media-icon">
            <${Icon}
              name=${v.type === 'image' ? 'image' : v.type === 'document' ? 'document' : 'media'}
              size=${26}
            />
          </div>
          <div>
            <div class="media-name">${v.filename ?? v.type}</div>
            <div class="media-link" title="not fetched: the studio works offline">${v.link}</div>
          </div>
        </div>
        ${v.caption ? html`<div class="text">${v.caption}</div>` : null}`;
    case 'location':
      return html`<${LocationCard}
        latitude=${v.latitude}
        longitude=${v.longitude}
        name=${v.name}
        address=${v.address}
      />`;
    case 'contacts':
      return html`<${ContactCard} name=${v.name} phones=${v.phones} emails=${v.emails} />`;
    default:
      return html`<pre class="raw">${v.raw}</pre>`;
  }
}

function inbound(m) {
  if (m.tapped !== undefined) return html`<div class="tapped">↩ ${m.tapped}</div>`;
  if (m.media) {
    const ready = m.media.availability === 'ready' && m.media.id;
    const src = ready ? `/api/media/${encodeURIComponent(m.media.id)}` : undefined;
    const body =
      m.type === 'image' && src
        ? html`<img
            class="photo"
            src=${src}
            alt=${m.media.caption ?? m.media.filename ?? 'image'}
          />`
        : html`<a class="media-card" href=${src} target="_blank" rel="noopener">
            <div class="media-icon">
              <${Icon} name=${m.type === 'image' ? 'image' : 'document'} size=${26} />
            </div>
            <div>
              <div class="media-name">${m.media.filename ?? m.type}</div>
              <div class="media-link">${m.media.mimeType ?? ''} · ${m.media.availability}</div>
            </div>
          </a>`;
    return html`${body}${m.media.caption ? html`<div class="text">${m.media.caption}</div>` : null}`;
  }
  if (m.location)
    return html`<${LocationCard}
      latitude=${m.location.latitude}
      longitude=${m.location.longitude}
    />`;
  if (m.contacts)
    return m.contacts.map(
      (c) => html`<${ContactCard} name=${c.name} phones=${c.phones} emails=${[]} />`,
    );
  if (m.text !== undefined) return html`<div class="text">${m.text}</div>`;
  return html`<div class="text muted">[${m.type}]</div>`;
}

function LocationCard({ latitude, longitude, name, address }) {
  return html`<div class="location">
    <div class="map" aria-hidden="true">
      <span class="pin"><${Icon} name="location" size=${26} /></span>
    </div>
    ${name ? html`<div class="loc-name">${name}</div>` : null}
    ${address ? html`<div class="loc-address">${address}</div>` : null}
    <div class="loc-coords">${latitude.toFixed(4)}, ${longitude.toFixed(4)}</div>
  </div>`;
}

function ContactCard({ name, phones, emails }) {
  return html`<div class="contact-card">
    <div class="avatar small">${initials(name)}</div>
    <div>
      <div class="contact-name">${name}</div>
      ${[...phones, ...emails].map((p) => html`<div class="contact-line">${p}</div>`)}
    </div>
  </div>`;
}

export function initials(name) {
  return (name ?? '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');
}
