import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ntfyAppLink } from '../pages/household/away-push.js';

test('the ntfy app link is the topic address with the app\'s own scheme', () => {
  assert.equal(ntfyAppLink('https://ntfy.sh/hearth-AbC_d-12'), 'ntfy://ntfy.sh/hearth-AbC_d-12');
  assert.equal(ntfyAppLink('https://push.example.org:8443/base/hearth-x'), 'ntfy://push.example.org:8443/base/hearth-x');
  // A family's own server without TLS: the app is told not to use it.
  assert.equal(ntfyAppLink('http://192.168.1.5/hearth-x'), 'ntfy://192.168.1.5/hearth-x?secure=false');
  assert.equal(ntfyAppLink('javascript:alert(1)'), null);
  assert.equal(ntfyAppLink('not a url'), null);
});
