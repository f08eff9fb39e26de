// anachron: the API history webview. Draws one API's timeline across the tracked versions of its library, in the
// bands the server groups them into (the hover's), from the data the extension posts ({ type: 'history', response });
// every text goes in through textContent.
(function () {
  const vscode = acquireVsCodeApi();
  const content = document.getElementById('content');
  const form = document.getElementById('search');
  const query = document.getElementById('query');

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = text;
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

  /** Each band with the index of its first version and its versions' rows. */
  function placed(data) {
    const index = new Map(data.versions.map((v, i) => [v.version, i]));
    return data.bands.map((b) => {
      const start = index.get(b.first);
      return { ...b, start, rows: data.versions.slice(start, start + b.count) };
    });
  }

  const span = (b) => (b.count === 1 ? b.first : `${b.first}–${b.last} (${b.count})`);

  /**
   * The timeline: one bar across the panel's width, a segment per band (as wide as its share of the tracked
   * versions, at least a sliver), the version where each band starts below it where there is room, and the pinned
   * versions marked above. 75 versions read as a handful of bands, not as 75 nodes squeezed into a strip.
   */
  function timeline(data, width) {
    const n = data.versions.length;
    const root = el('div', 'timeline');
    root.setAttribute('role', 'img');
    root.setAttribute('aria-label', `timeline of ${data.api}: ${data.bands.map((b) => `${span(b)} ${b.state}`).join('; ')}`);
    const pins = el('div', 'pins');
    const bar = el('div', 'bar');
    const axis = el('div', 'axis');
    const bands = placed(data);
    bands.forEach((b, i) => {
      const seg = el('div', `seg ${b.state}${i > 0 && bands[i - 1].state === b.state ? ' changed' : ''}${b.pinned ? ' pinned' : ''}`);
      seg.style.flexGrow = String(b.count);
      seg.title = `${span(b)}: ${STATE_LABEL[b.state]}${b.signature ? ` · ${b.signature}` : ''}`;
      bar.appendChild(seg);
    });
    // Labels at band starts, left to right, each where it does not run into the one before (about 64 px apart) nor
    // past the bar's right end (a narrow panel would scroll sideways).
    const px = (i) => (i / n) * width;
    let lastAt = -Infinity;
    for (const b of bands) {
      if (px(b.start) - lastAt < 64 || (b.start > 0 && px(b.start) + 64 > width)) continue;
      const label = el('span', `tick${b.pinned ? ' pinned' : ''}`, b.first);
      label.style.left = `${(b.start / n) * 100}%`;
      axis.appendChild(label);
      lastAt = px(b.start);
    }
    const last = el('span', 'tick end', data.versions[n - 1].version);
    if (px(n) - lastAt >= 128) axis.appendChild(last);
    data.versions.forEach((v, i) => {
      if (!v.pinned) return;
      const mark = el('span', 'pin', '▼');
      mark.title = `pinned: ${v.version}`;
      mark.style.left = `${((i + 0.5) / n) * 100}%`;
      pins.appendChild(mark);
    });
    const pinnedVersions = data.versions.filter((v) => v.pinned).map((v) => v.version);
    if (pinnedVersions.length) {
      const label = el('span', 'pin-label', pinnedVersions.length === 1 ? `pinned ${pinnedVersions[0]}` : `pinned ${pinnedVersions[0]}–${pinnedVersions[pinnedVersions.length - 1]}`);
      const first = data.versions.findIndex((v) => v.pinned);
      label.style.left = `${((first + 0.5) / n) * 100}%`;
      if (first / n > 0.7) label.classList.add('flip');
      pins.appendChild(label);
    }
    root.append(pins, bar, axis);
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

  /** One row per band, as the hover lists them: the versions, the state, the signature, where it was read. */
  function table(data) {
    const t = el('table', 'versions');
    const head = el('tr');
    for (const h of ['Versions', 'State', 'Signature', 'Evidence']) head.appendChild(el('th', '', h));
    t.appendChild(el('thead')).appendChild(head);
    const body = el('tbody');
    for (const b of placed(data)) {
      const row = el('tr', b.pinned ? 'pinned' : '');
      const pinned = b.rows.filter((v) => v.pinned).map((v) => v.version);
      const mark = pinned.length === 0 ? '' : b.count === 1 ? '  (pinned)' : `  (pinned: ${pinned.length === 1 ? pinned[0] : `${pinned[0]}–${pinned[pinned.length - 1]}`})`;
      row.appendChild(el('td', 'version', span(b) + mark));
      const user = b.rows.some((v) => v.user);
      row.appendChild(el('td', `state ${b.state}`, b.state + (user ? ' · your matrix' : '')));
      const sig = el('td', 'signature');
      if (b.signature) sig.appendChild(el('code', '', b.signature));
      else sig.textContent = b.state === 'present' ? '—' : '';
      row.appendChild(sig);
      row.appendChild(el('td', 'source', [...new Set(b.rows.map((v) => v.signatureSource).filter(Boolean))].join(', ')));
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
    const n = data.versions.length;
    content.appendChild(el('p', 'muted', `${data.distribution}: ${n} tracked version${n === 1 ? '' : 's'}, ${data.versions[0].version}–${data.versions[n - 1].version}, in ${data.bands.length} band${data.bands.length === 1 ? '' : 's'}`));
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
    content.appendChild(timeline(data, Math.min(content.clientWidth || 600, 1100)));
    content.appendChild(legend());
    // In a narrow panel the table scrolls in its own box; the page never does sideways.
    content.appendChild(el('div', 'table-box')).appendChild(table(data));
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

  let shown = null;
  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'history') render((shown = event.data));
  });
  // The labels under the bar are spaced for the panel's width: drawn again when it changes.
  let resizing = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => shown && !shown.response.error && render(shown), 150);
  });
  vscode.postMessage({ type: 'ready' });
})();
