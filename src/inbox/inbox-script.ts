/**
 * The pages' only script, served as a file (their CSP allows no inline code). It follows the
 * server-sent events: the list is fetched again when its first page changes, and an open call that
 * stops waiting says so (a page follows only the call it shows). Before an approval is posted it checks the fields against the tool's
 * JSON Schema (the page embeds it as data) for what a form can get wrong: required fields,
 * numbers and their bounds, lengths, patterns, choices; the inbox checks the whole schema again,
 * and the run the tool's own.
 */
export const INBOX_SCRIPT = `'use strict';
(function () {
  var schemaNode = document.getElementById('tool-schema');
  var schema = schemaNode ? JSON.parse(schemaNode.textContent) : null;

  function typeOf(property) {
    var type = Array.isArray(property.type) ? property.type.filter(function (t) { return t !== 'null'; })[0] : property.type;
    return type || (property.properties ? 'object' : undefined);
  }

  function problemOf(property, text, required) {
    if (text.trim() === '') return required ? 'is required' : null;
    var type = property.enum ? undefined : typeOf(property);
    if (type === 'number' || type === 'integer') {
      var number = Number(text.trim());
      if (isNaN(number)) return "'" + text + "' is not a number";
      if (type === 'integer' && Math.floor(number) !== number) return 'must be integer';
      if (typeof property.maximum === 'number' && number > property.maximum) return 'must be <= ' + property.maximum;
      if (typeof property.minimum === 'number' && number < property.minimum) return 'must be >= ' + property.minimum;
      if (typeof property.exclusiveMaximum === 'number' && number >= property.exclusiveMaximum) return 'must be < ' + property.exclusiveMaximum;
      if (typeof property.exclusiveMinimum === 'number' && number <= property.exclusiveMinimum) return 'must be > ' + property.exclusiveMinimum;
    }
    if (type === 'string') {
      if (typeof property.minLength === 'number' && text.length < property.minLength) return 'must NOT have fewer than ' + property.minLength + ' characters';
      if (typeof property.maxLength === 'number' && text.length > property.maxLength) return 'must NOT have more than ' + property.maxLength + ' characters';
      if (typeof property.pattern === 'string' && !new RegExp(property.pattern, 'u').test(text)) return 'must match pattern "' + property.pattern + '"';
    }
    return null;
  }

  function check(node, prefix, form) {
    var found = 0;
    var required = node.required || [];
    Object.keys(node.properties || {}).forEach(function (key) {
      var property = node.properties[key];
      var name = prefix ? prefix + '.' + key : key;
      if (typeOf(property) === 'object' && property.properties) { found += check(property, name, form); return; }
      var input = form.elements.namedItem('arg:' + name);
      var field = form.querySelector('.field[data-field="' + name + '"]');
      if (!input || !field) return;
      var problem = problemOf(property, input.value, required.indexOf(key) >= 0);
      var shown = field.querySelector('.error');
      if (shown) shown.remove();
      field.classList.toggle('invalid', problem !== null);
      if (problem) {
        var error = document.createElement('p');
        error.className = 'error';
        error.setAttribute('role', 'alert');
        error.textContent = problem;
        field.appendChild(error);
        found += 1;
      }
    });
    return found;
  }

  document.querySelectorAll('form[data-answer]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!schema || !event.submitter || event.submitter.value !== 'approve') return;
      if (check(schema, '', form) > 0) {
        event.preventDefault();
        var note = document.getElementById('not-sent');
        if (note) note.hidden = false;
      }
    });
  });

  var list = document.getElementById('items');
  var item = document.querySelector('[data-item-key]');
  if (!list && !item) return;
  var source = new EventSource(item ? '/events?watch=' + encodeURIComponent(item.getAttribute('data-item-key')) : '/events');
  source.addEventListener('waiting', function () {
    if (!list) return;
    fetch('/fragment' + location.search, { credentials: 'same-origin' })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (text) { list.innerHTML = text; })
      .catch(function () {});
  });
  source.addEventListener('gone', function () {
    var notice = document.getElementById('gone');
    if (notice) notice.hidden = false;
  });
})();
`;
