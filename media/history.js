// anachron: the API history webview. Draws one API's timeline across the tracked versions of its library, from the
// data the extension posts ({ type: 'history', response }); every text goes in through textContent.
(function () {
  const vscode = acquireVsCodeApi();
  const content = document.getElementById('content');
  const form = document.getElementById('search');
  const query = document.getElementById('query');
  const SVG = 'http://www.w3.org/2000/svg';

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function lookup(api) {
    vscode.postMessage({ type: 'lookup', api });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const api = query.value.trim();
    if (api) lookup(api);
  });

  const STATE_LABEL = { present: 'present', absent: 'absent', unknown: 'unknown' };

  /** The timeline: one node per tracked version, lanes coloured by state, the pin marked above. */
  function timeline(data) {
    const n = data.versions.length;
    const step = 150;
    const left = 60;
    const width = left * 2 + step * Math.max(n - 1, 1);
    const laneY = 62;
    // Drawn at its natural size (scaled down only when the view is narrower), so few versions do not balloon.
    const root = svg('svg', { viewBox: `0 0 ${width} 120`, width, height: 120, class: 'timeline', role: 'img', 'aria-label': `timeline of ${data.api}` });
    const x = (i) => (n === 1 ? width / 2 : left + i * step);
    data.versions.forEach((v, i) => {
      if (i < n - 1) root.appendChild(svg('rect', { x: x(i), y: laneY - 6, width: step, height: 12, class: `lane ${v.state}` }));
    });
    data.versions.forEach((v, i) => {
      const prev = data.versions[i - 1];
      const changed = prev && prev.signature && v.signature && prev.signature !== v.signature;
      root.appendChild(svg('circle', { cx: x(i), cy: laneY, r: 11, class: `node ${v.state}${v.pinned ? ' pinned' : ''}` }));
      if (changed) root.appendChild(svg('rect', { x: x(i) - 5, y: laneY - 5, width: 10, height: 10, transform: `rotate(45 ${x(i)} ${laneY})`, class: 'changed' }));
      root.appendChild(svg('text', { x: x(i), y: laneY + 34, class: `version${v.pinned ? ' pinned' : ''}`, 'text-anchor': 'middle' }, v.version));
      root.appendChild(svg('text', { x: x(i), y: laneY + 50, class: `state ${v.state}`, 'text-anchor': 'middle' }, STATE_LABEL[v.state] + (v.user ? ' · yours' : '')));
      if (v.pinned) {
        root.appendChild(svg('path', { d: `M ${x(i) - 8} ${laneY - 36} L ${x(i) + 8} ${laneY - 36} L ${x(i)} ${laneY - 22} Z`, class: 'pin' }));
        root.appendChild(svg('text', { x: x(i), y: laneY - 42, class: 'pin-label', 'text-anchor': 'middle' }, 'pinned'));
      }
    });
    return root;
  }

  function legend() {
    const p = el('p', 'legend');
    for (const [state, label] of [['present', 'present'], ['absent', 'absent'], ['unknown', 'unknown (the module could not be introspected there)']]) {
      const item = el('span', 'legend-item');
      item.appendChild(el('span', `swatch ${state}`));
      item.appendChild(document.createTextNode(label));
      p.appendChild(item);
    }
    const changed = el('span', 'legend-item');
    changed.appendChild(el('span', 'swatch changed-swatch'));
    changed.appendChild(document.createTextNode('signature changed'));
    p.appendChild(changed);
    return p;
  }

  function table(data) {
    const t = el('table', 'versions');
    const head = el('tr');
    for (const h of ['Version', 'State', 'Signature', 'Evidence']) head.appendChild(el('th', '', h));
    t.appendChild(el('thead')).appendChild(head);
    const body = el('tbody');
    for (const v of data.versions) {
      const row = el('tr', v.pinned ? 'pinned' : '');
      row.appendChild(el('td', 'version', v.version + (v.pinned ? '  (pinned)' : '')));
      row.appendChild(el('td', `state ${v.state}`, v.state + (v.user ? ' · your matrix' : '')));
      const sig = el('td', 'signature');
      if (v.signature) sig.appendChild(el('code', '', v.signature));
      else sig.textContent = v.state === 'present' ? '—' : '';
      row.appendChild(sig);
      row.appendChild(el('td', 'source', v.signatureSource || ''));
      body.appendChild(row);
    }
    t.appendChild(body);
    return t;
  }

  function render(message) {
    const data = message.response;
    content.replaceChildren();
    if (data.error) {
      content.appendChild(el('p', 'error', data.error));
      if (data.suggestions && data.suggestions.length) {
        const p = el('p', 'related', 'Try: ');
        for (const s of data.suggestions) {
          const a = el('a', '', s);
          a.href = '#';
          a.addEventListener('click', (e) => {
            e.preventDefault();
            lookup(s);
          });
          p.appendChild(a);
          p.appendChild(document.createTextNode(' '));
        }
        content.appendChild(p);
      }
      return;
    }
    query.value = data.api;
    const title = el('h1');
    title.appendChild(el('code', '', data.api));
    title.appendChild(el('span', 'kind', data.kind));
    content.appendChild(title);
    const versions = data.versions.map((v) => v.version).join(', ');
    content.appendChild(el('p', 'muted', `${data.distribution}: tracked versions ${versions}`));
    if (data.pin) {
      const pin = el('p', 'pin-line');
      pin.appendChild(el('strong', '', 'Pin: '));
      pin.appendChild(document.createTextNode(data.pin));
      if (data.atPin) {
        const basis = data.atPin.basis === 'tracked' ? '' : ` (${data.atPin.basis} from the tracked versions around it)`;
        pin.appendChild(document.createTextNode(` — at ${data.atPin.version}: `));
        pin.appendChild(el('span', `state ${data.atPin.state}`, data.atPin.state + basis));
      }
      content.appendChild(pin);
    }
    content.appendChild(timeline(data));
    content.appendChild(legend());
    content.appendChild(table(data));
    const doc = [...data.versions].reverse().find((v) => v.doc);
    if (doc) content.appendChild(el('blockquote', '', doc.doc));
    if (data.related && data.related.length) {
      const p = el('p', 'related', 'Same documentation (likely renames): ');
      for (const api of data.related) {
        const a = el('a', '', api);
        a.href = '#';
        a.addEventListener('click', (e) => {
          e.preventDefault();
          lookup(api);
        });
        p.appendChild(a);
        p.appendChild(document.createTextNode(' '));
      }
      content.appendChild(p);
    }
  }

  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'history') render(event.data);
  });
  vscode.postMessage({ type: 'ready' });
})();
