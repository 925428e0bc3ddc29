/* global FileReader */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from './icons.js';

/**
 * The customer's composer: a message box (focused on load, Enter sends) and attachments:
 * image, document, location, contact card.
 */
export function Composer({ onSend }) {
  const [text, setText] = useState('');
  const [panel, setPanel] = useState(null);
  const input = useRef(null);
  const imageInput = useRef(null);
  const docInput = useRef(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (event) => {
    event.preventDefault();
    const value = text.trim();
    if (value === '') return;
    setText('');
    await onSend({ type: 'text', text: value });
    input.current?.focus();
  };
  const pick = (kind) => async (event) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const base64 = await readBase64(file);
    const caption = text.trim();
    setText('');
    await onSend({
      type: kind,
      filename: file.name,
      mimeType: file.type || (kind === 'image' ? 'image/png' : 'application/octet-stream'),
      base64,
      ...(caption ? { caption } : {}),
    });
    input.current?.focus();
  };
  const sendAndClose = async (message) => {
    setPanel(null);
    await onSend(message);
    input.current?.focus();
  };

  return html`
    <div class="composer-wrap">
      ${panel === 'location' ? html`<${LocationForm} onSend=${sendAndClose} onCancel=${() => setPanel(null)} />` : null}
      ${panel === 'contact' ? html`<${ContactForm} onSend=${sendAndClose} onCancel=${() => setPanel(null)} />` : null}
      <form class="composer" onSubmit=${submit}>
        <div class="attach">
          <button
            type="button"
            title="Send an image"
            aria-label="Send an image"
            onClick=${() => imageInput.current?.click()}
          >
            <${Icon} name="image" />
          </button>
          <button
            type="button"
            title="Send a document"
            aria-label="Send a document"
            onClick=${() => docInput.current?.click()}
          >
            <${Icon} name="document" />
          </button>
          <button
            type="button"
            title="Send a location"
            aria-label="Send a location"
            onClick=${() => setPanel(panel === 'location' ? null : 'location')}
          >
            <${Icon} name="location" />
          </button>
          <button
            type="button"
            title="Send a contact card"
            aria-label="Send a contact card"
            onClick=${() => setPanel(panel === 'contact' ? null : 'contact')}
          >
            <${Icon} name="contact" />
          </button>
        </div>
        <input
          ref=${input}
          class="message-box"
          data-testid="message-box"
          aria-label="Message as the customer"
          placeholder="Message as the customer"
          autocomplete="off"
          autofocus
          value=${text}
          onInput=${(e) => setText(e.target.value)}
        />
        <button type="submit" class="send" aria-label="Send"><${Icon} name="send" /></button>
        <input
          ref=${imageInput}
          type="file"
          accept="image/*"
          hidden
          data-testid="image-input"
          onChange=${pick('image')}
        />
        <input
          ref=${docInput}
          type="file"
          hidden
          data-testid="document-input"
          onChange=${pick('document')}
        />
      </form>
    </div>
  `;
}

function LocationForm({ onSend, onCancel }) {
  const [lat, setLat] = useState('52.3731');
  const [lng, setLng] = useState('4.8922');
  const [name, setName] = useState('');
  return html`<form
    class="mini-form"
    onSubmit=${(e) => {
      e.preventDefault();
      onSend({
        type: 'location',
        latitude: Number(lat),
        longitude: Number(lng),
        ...(name ? { name } : {}),
      });
    }}
  >
    <b>Location</b>
    <input aria-label="latitude" value=${lat} onInput=${(e) => setLat(e.target.value)} />
    <input aria-label="longitude" value=${lng} onInput=${(e) => setLng(e.target.value)} />
    <input
      aria-label="place name"
      placeholder="name (optional)"
      value=${name}
      onInput=${(e) => setName(e.target.value)}
    />
    <button type="submit">Send location</button>
    <button type="button" onClick=${onCancel}>Cancel</button>
  </form>`;
}

function ContactForm({ onSend, onCancel }) {
  const [name, setName] = useState('Grace Hopper');
  const [phone, setPhone] = useState('+15551230002');
  return html`<form
    class="mini-form"
    onSubmit=${(e) => {
      e.preventDefault();
      onSend({ type: 'contact', name, phone });
    }}
  >
    <b>Contact card</b>
    <input aria-label="contact name" value=${name} onInput=${(e) => setName(e.target.value)} />
    <input aria-label="contact phone" value=${phone} onInput=${(e) => setPhone(e.target.value)} />
    <button type="submit">Send contact</button>
    <button type="button" onClick=${onCancel}>Cancel</button>
  </form>`;
}

function readBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
