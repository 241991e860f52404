import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHtml, html, trusted } from '../../src/web/html.ts';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<img src=x onerror="alert('x')">&`;
    assert.equal(
      html`<p title="${name}">${name}</p>`.value,
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;">&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;</p>',
    );
  });

  it('passes nested html through, joins lists, and renders nothing for false, null and undefined', () => {
    const items = ['a<b', 'c'].map((x) => html`<li>${x}</li>`);
    assert.equal(
      html`<ul>${items}</ul>${false}${null}${undefined}${0}`.value,
      '<ul><li>a&lt;b</li><li>c</li></ul>0',
    );
    assert.equal(html`${trusted('<br>')}`.value, '<br>');
    assert.equal(escapeHtml('"\''), '&quot;&#39;');
  });
});
