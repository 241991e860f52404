// Small enhancements shared by every page. Each one is optional: without JavaScript the
// pages still work (forms post, links navigate); only the conveniences are missing.

// Copy buttons: <button data-copy="id-of-element">. Copies an input's value or an element's text.
for (const button of document.querySelectorAll('[data-copy]')) {
  button.addEventListener('click', async () => {
    const target = document.getElementById(button.dataset.copy ?? '');
    if (!target) return;
    const text = target instanceof HTMLInputElement ? target.value : (target.textContent ?? '');
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = document.body.dataset.copied ?? '✓';
    } catch {
      // No clipboard permission (an insecure origin, an old browser): select it for Ctrl+C instead.
      if (target instanceof HTMLInputElement) target.select();
      else window.getSelection()?.selectAllChildren(target);
      button.textContent = document.body.dataset.copyFallback ?? 'Ctrl+C';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}

// Forms that undo something ask first: <form data-confirm="question">.
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.dataset.confirm ?? '')) event.preventDefault();
  });
}

// A freshly shown key is selected, so it can be copied at once.
const newKey = document.getElementById('new-key-value');
if (newKey instanceof HTMLInputElement) {
  newKey.addEventListener('focus', () => newKey.select());
}
