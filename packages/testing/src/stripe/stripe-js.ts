/**
 * A stand-in of Stripe.js v3 for browser tests: the part of its API that @stripe/stripe-js and
 * @stripe/react-stripe-js use (Stripe(), elements(), a Payment Element, confirmPayment, confirmSetup).
 * Served in place of https://js.stripe.com/…/stripe.js; it calls https://api.stripe.com, which the test
 * routes to the Stripe stand-in, with the publishable key and the intent's client secret as Stripe.js
 * does. The card form is drawn in the page (Stripe draws it in an iframe); Stripe's test card numbers
 * become its test payment methods: 4242… pm_card_visa, 5555… pm_card_mastercard, 4000 0000 0000 0002
 * pm_card_chargeDeclined. Errors come back in Stripe.js's shape ({ error: { type, code, message } }).
 */
export const STRIPE_JS_STAND_IN = String.raw`(function () {
  'use strict';
  var API = 'https://api.stripe.com';
  var CARDS = { '4242424242424242': 'pm_card_visa', '5555555555554444': 'pm_card_mastercard', '4000000000000002': 'pm_card_chargeDeclined' };
  var counter = 0;

  function encode(params) {
    return Object.keys(params).filter(function (k) { return params[k] !== undefined; })
      .map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(params[k]); }).join('&');
  }
  function call(method, path, params) {
    var body = encode(params);
    var url = API + path + (method === 'GET' ? '?' + body : '');
    return fetch(url, method === 'GET' ? {} : { method: method, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: body })
      .then(function (res) { return res.json(); });
  }
  function validationError(code, message) {
    return { error: { type: 'validation_error', code: code, message: message } };
  }

  function field(id, label, attrs) {
    var wrap = document.createElement('div');
    wrap.style.cssText = 'display:flex;flex-direction:column;gap:4px;flex:1;min-width:7rem';
    var l = document.createElement('label');
    l.htmlFor = id;
    l.textContent = label;
    l.style.cssText = 'font-size:0.875rem;font-weight:500';
    var input = document.createElement('input');
    input.id = id;
    input.type = 'text';
    input.style.cssText = 'height:2.5rem;padding:0 0.75rem;border:1px solid #94a3b8;border-radius:0.375rem;background:#fff;color:#0f172a;font-size:1rem';
    for (var k in attrs) input.setAttribute(k, attrs[k]);
    wrap.appendChild(l);
    wrap.appendChild(input);
    return { wrap: wrap, input: input };
  }

  function createElement(type, group) {
    var listeners = {};
    var root = null;
    var inputs = null;
    var n = ++counter;
    function emit(event, payload) {
      (listeners[event] || []).slice().forEach(function (cb) { cb(payload); });
    }
    function values() {
      return {
        number: inputs ? inputs.number.value.replace(/\s+/g, '') : '',
        expiry: inputs ? inputs.expiry.value.replace(/\s+/g, '') : '',
        cvc: inputs ? inputs.cvc.value.trim() : '',
      };
    }
    var element = {
      mount: function (target) {
        var node = typeof target === 'string' ? document.querySelector(target) : target;
        root = document.createElement('fieldset');
        root.setAttribute('data-stripe-stand-in', type);
        root.style.cssText = 'border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:0.75rem';
        var legend = document.createElement('legend');
        legend.textContent = 'Card';
        legend.style.cssText = 'font-size:0.875rem;font-weight:600;margin-bottom:0.5rem';
        root.appendChild(legend);
        var number = field('sw-card-number-' + n, 'Card number', { inputmode: 'numeric', autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234' });
        number.wrap.style.flexBasis = '100%';
        var expiry = field('sw-card-expiry-' + n, 'Expiration date', { inputmode: 'numeric', autocomplete: 'cc-exp', placeholder: 'MM / YY' });
        var cvc = field('sw-card-cvc-' + n, 'Security code', { inputmode: 'numeric', autocomplete: 'cc-csc', placeholder: 'CVC' });
        [number, expiry, cvc].forEach(function (f) {
          root.appendChild(f.wrap);
          f.input.addEventListener('input', function () {
            var v = values();
            emit('change', { elementType: type, empty: !v.number && !v.expiry && !v.cvc, complete: !check(v).error, value: { type: 'card' } });
          });
        });
        inputs = { number: number.input, expiry: expiry.input, cvc: cvc.input };
        node.appendChild(root);
        setTimeout(function () { emit('ready', { elementType: type }); }, 0);
        return element;
      },
      unmount: function () {
        if (root && root.parentNode) root.parentNode.removeChild(root);
        root = null;
        inputs = null;
      },
      destroy: function () {
        element.unmount();
        listeners = {};
        if (group._elements[type] === element) delete group._elements[type];
      },
      on: function (event, cb) { (listeners[event] = listeners[event] || []).push(cb); return element; },
      once: function (event, cb) {
        var wrapped = function (p) { element.off(event, wrapped); cb(p); };
        return element.on(event, wrapped);
      },
      off: function (event, cb) {
        listeners[event] = (listeners[event] || []).filter(function (x) { return cb !== undefined && x !== cb; });
        return element;
      },
      update: function () { return element; },
      focus: function () { if (inputs) inputs.number.focus(); },
      blur: function () {},
      clear: function () { if (inputs) { inputs.number.value = ''; inputs.expiry.value = ''; inputs.cvc.value = ''; } },
      collapse: function () {},
      _paymentMethod: function () { return check(values()); },
    };
    return element;
  }

  function check(v) {
    if (!v.number) return validationError('incomplete_number', 'Your card number is incomplete.');
    if (!/^\d{12,19}$/.test(v.number)) return validationError('invalid_number', 'Your card number is invalid.');
    var m = /^(\d{2})\/?(\d{2})$/.exec(v.expiry);
    if (!m) return validationError('incomplete_expiry', "Your card's expiration date is incomplete.");
    var month = Number(m[1]);
    var year = 2000 + Number(m[2]);
    var now = new Date();
    if (month < 1 || month > 12) return validationError('invalid_expiry_month', "Your card's expiration month is invalid.");
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) return validationError('invalid_expiry_year_past', "Your card's expiration year is in the past.");
    if (!/^\d{3,4}$/.test(v.cvc)) return validationError('incomplete_cvc', "Your card's security code is incomplete.");
    var pm = CARDS[v.number];
    if (!pm) return validationError('invalid_number', 'Your card number is invalid.');
    return { paymentMethod: pm };
  }

  function Stripe(key) {
    if (typeof key !== 'string' || key.indexOf('pk_') !== 0) throw new Error('Invalid publishable key: ' + key);
    function confirm(kind, field, params) {
      var group = params.elements;
      var secret = params.clientSecret || (group && group._options.clientSecret);
      var element = group && (group.getElement('payment') || group.getElement('card'));
      if (!element) return Promise.resolve(validationError('missing_element', 'A Payment Element must be mounted to confirm.'));
      var card = element._paymentMethod();
      if (card.error) return Promise.resolve(card);
      var id = String(secret).split('_secret_')[0];
      var returnUrl = params.confirmParams && params.confirmParams.return_url;
      return call('POST', '/v1/' + kind + '/' + id + '/confirm', { key: key, client_secret: secret, payment_method: card.paymentMethod, return_url: returnUrl })
        .then(function (body) {
          if (body.error) return { error: body.error };
          if (params.redirect !== 'if_required' && returnUrl) {
            var sep = returnUrl.indexOf('?') === -1 ? '?' : '&';
            var name = kind === 'payment_intents' ? 'payment_intent' : 'setup_intent';
            window.location.assign(returnUrl + sep + name + '=' + id + '&' + name + '_client_secret=' + encodeURIComponent(secret) + '&redirect_status=succeeded');
            return new Promise(function () {});
          }
          var out = {};
          out[field] = body;
          return out;
        });
    }
    function retrieve(kind, field, secret) {
      var id = String(secret).split('_secret_')[0];
      return call('GET', '/v1/' + kind + '/' + id, { key: key, client_secret: secret }).then(function (body) {
        if (body.error) return { error: body.error };
        var out = {};
        out[field] = body;
        return out;
      });
    }
    var unsupported = function () { return Promise.reject(new Error('Not part of the Stripe.js stand-in')); };
    return {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      elements: function (options) {
        var group = {
          _elements: {},
          _options: Object.assign({}, options || {}),
          create: function (type) {
            var el = createElement(type, group);
            group._elements[type] = el;
            return el;
          },
          getElement: function (type) { return group._elements[type] || null; },
          update: function (o) { Object.assign(group._options, o || {}); },
          submit: function () {
            var el = group.getElement('payment') || group.getElement('card');
            var card = el ? el._paymentMethod() : validationError('missing_element', 'A Payment Element must be mounted.');
            return Promise.resolve(card.error ? { error: card.error } : {});
          },
          fetchUpdates: function () { return Promise.resolve({}); },
        };
        return group;
      },
      confirmPayment: function (params) { return confirm('payment_intents', 'paymentIntent', params); },
      confirmSetup: function (params) { return confirm('setup_intents', 'setupIntent', params); },
      retrievePaymentIntent: function (secret) { return retrieve('payment_intents', 'paymentIntent', secret); },
      retrieveSetupIntent: function (secret) { return retrieve('setup_intents', 'setupIntent', secret); },
      createToken: unsupported,
      createPaymentMethod: unsupported,
      confirmCardPayment: unsupported,
      confirmCardSetup: unsupported,
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;
