import { html } from 'htm/preact';

/** Small inline icons (no icon font, no emoji font needed). */
const PATHS = {
  image: 'M4 5h16v14H4z M4 16l5-5 4 4 3-3 4 4 M15.5 9.5a1.5 1.5 0 1 0 0.01 0',
  document: 'M6 3h8l4 4v14H6z M14 3v4h4 M9 12h6 M9 15h6 M9 18h4',
  location:
    'M12 21s-6-6.2-6-11a6 6 0 0 1 12 0c0 4.8-6 11-6 11z M12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5',
  contact: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8 M4 21c0-4 3.6-6 8-6s8 2 8 6',
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18 M12 7v5l3 2',
  send: 'M4 20l17-8L4 4l2 8z M6 12h8',
  template: 'M5 4h14v16H5z M8 8h8 M8 12h8 M8 16h5',
  media: 'M4 5h16v14H4z M10 9v6l5-3z',
  warning: 'M12 3l10 18H2z M12 10v5 M12 18v.01',
};

export function Icon({ name, size = 18, title }) {
  return html`<svg
    class=${`icon icon-${name}`}
    width=${size}
    height=${size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="1.8"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden=${title ? undefined : 'true'}
  >
    ${title ? html`<title>${title}</title>` : null}
    <path d=${PATHS[name]} />
  </svg>`;
}
