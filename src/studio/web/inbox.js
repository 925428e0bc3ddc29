import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { formatTime } from './api.js';
import { initials } from './phone.js';

/** Every conversation of the sandbox, one row per customer, and "add a customer". */
export function Inbox({ customers, selected, onSelect, onAdd }) {
  return html`
    <div class="inbox">
      <div class="pane-title">
        Inbox
        ${onAdd ? html`<button class="small" data-testid="add-customer" onClick=${onAdd}>+ Customer</button>` : null}
      </div>
      <ul class="conversations">
        ${customers.map(
          (c) =>
            html`<li
              key=${c.phone}
              class=${`conversation${c.phone === selected ? ' selected' : ''}`}
              data-testid="conversation"
              onClick=${() => onSelect(c.phone)}
            >
              <div class="avatar small">${initials(c.name)}</div>
              <div class="conv-body">
                <div class="conv-top">
                  <span class="conv-name">${c.name}</span>
                  ${c.lastMessageAt ? html`<span class="conv-time">${formatTime(Date.parse(c.lastMessageAt))}</span>` : null}
                </div>
                <div class="conv-preview">${c.preview ?? 'no messages yet'}</div>
                <div class="badges">
                  ${c.humanOwned ? html`<span class="badge human" data-testid="human-badge">humanOwned</span>` : null}
                  ${c.state ? html`<span class="badge state">${c.state}</span>` : null}
                  ${c.ended ? html`<span class="badge ended">ended</span>` : null}
                  ${c.window.state !== 'none' ? html`<span class=${`badge win-${c.window.state}`}>${c.window.state}</span>` : null}
                </div>
              </div>
            </li>`,
        )}
      </ul>
    </div>
  `;
}

/** The teammate's side of the dashboard: Take over, reply while owning, Release to API. */
export function TeammateBox({ customer, detail, readOnly, onTakeOver, onRelease, onReply }) {
  const [text, setText] = useState('');
  if (!customer) return null;
  const owned = detail?.humanOwned === true;
  const hasConversation = detail?.conversationId != null;
  if (readOnly)
    return html`<div class=${`teammate-box${owned ? ' owned' : ''}`} data-testid="teammate-box">
      <div class="pane-title">Ownership · ${customer.name}</div>
      <p class="muted" data-testid="ownership">
        ${owned ? 'A person owns this conversation: the bot stays quiet.' : 'The bot handles this conversation.'}
      </p>
      ${
        detail?.timers?.length > 0
          ? html`<ul class="timers" data-testid="timers">
              ${detail.timers.map(
                (t) => html`<li>timer ${t.name} · due ${new Date(t.dueAt).toLocaleString()}</li>`,
              )}
            </ul>`
          : null
      }
    </div>`;
  return html`
    <div class=${`teammate-box${owned ? ' owned' : ''}`} data-testid="teammate-box">
      <div class="pane-title">Dashboard · ${customer.name}</div>
      ${
        !hasConversation
          ? html`<p class="muted">No conversation yet.</p>`
          : owned
            ? html`
                <p class="owner">You (a teammate) own this conversation. The bot is silent.</p>
                <form
                  class="reply-form"
                  onSubmit=${async (e) => {
                    e.preventDefault();
                    if (text.trim() === '') return;
                    await onReply(text);
                    setText('');
                  }}
                >
                  <textarea
                    data-testid="teammate-reply"
                    aria-label="Reply as a teammate"
                    placeholder="Reply as a teammate"
                    value=${text}
                    onInput=${(e) => setText(e.target.value)}
                  ></textarea>
                  <button type="submit">Send as teammate</button>
                </form>
                <button class="release" onClick=${onRelease}>Release to API</button>
              `
            : html`
                <p class="muted">The bot handles this conversation.</p>
                <button class="takeover" onClick=${onTakeOver}>Take over</button>
              `
      }
    </div>
  `;
}
