/*
 * TEST-ONLY STAND-IN FOR STRIPE'S SCRIPT (https://js.stripe.com/…/stripe.js). It is not Stripe.js
 * and is never served to anyone: the browser stories route Stripe's script address to this file,
 * because the Chromium here cannot reach js.stripe.com. It implements only the documented calls
 * our code makes (through @stripe/stripe-js and @stripe/react-stripe-js): Stripe(key),
 * stripe.elements(), elements.create('card') / getElement, element.mount / on / off / update /
 * destroy, and stripe.confirmCardPayment(clientSecret, {payment_method: {card}}), which POSTs the
 * typed card number to https://api.stripe.com/v1/payment_intents/{id}/confirm (the story routes
 * that to the project's fake Stripe server). The card is a plain input, not Stripe's iframe.
 * createToken and createPaymentMethod exist only because @stripe/react-stripe-js checks for them.
 */
(function () {
  function Emitter() {
    var handlers = {};
    return {
      on: function (event, cb) {
        (handlers[event] = handlers[event] || []).push(cb);
      },
      off: function (event, cb) {
        handlers[event] = (handlers[event] || []).filter(function (h) {
          return h !== cb;
        });
      },
      emit: function (event, payload) {
        (handlers[event] || []).slice().forEach(function (h) {
          h(payload);
        });
      },
    };
  }

  function createCard() {
    var events = Emitter();
    var input = document.createElement('input');
    input.setAttribute('aria-label', 'Card number');
    input.setAttribute('inputmode', 'numeric');
    input.setAttribute('autocomplete', 'cc-number');
    input.className = 'stripe-stand-in__number';
    input.style.cssText = 'width:100%;border:0;outline:0;font:inherit;background:transparent;color:inherit';
    var digits = function () {
      return input.value.replace(/\D/g, '');
    };
    input.addEventListener('input', function () {
      var n = digits();
      events.emit('change', { elementType: 'card', empty: n.length === 0, complete: n.length >= 16, brand: 'visa', value: {} });
    });
    input.addEventListener('focus', function () {
      events.emit('focus', { elementType: 'card' });
    });
    input.addEventListener('blur', function () {
      events.emit('blur', { elementType: 'card' });
    });
    return {
      _number: digits,
      mount: function (node) {
        var target = typeof node === 'string' ? document.querySelector(node) : node;
        target.appendChild(input);
        setTimeout(function () {
          events.emit('ready', { elementType: 'card' });
        }, 0);
      },
      unmount: function () {
        input.remove();
      },
      destroy: function () {
        input.remove();
      },
      update: function (options) {
        if (options && 'disabled' in options) input.disabled = !!options.disabled;
      },
      focus: function () {
        input.focus();
      },
      blur: function () {
        input.blur();
      },
      clear: function () {
        input.value = '';
      },
      on: events.on,
      off: events.off,
    };
  }

  function Stripe(publishableKey) {
    var cards = {};
    return {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      createToken: function () {
        return Promise.reject(new Error('Not in the Stripe.js stand-in.'));
      },
      createPaymentMethod: function () {
        return Promise.reject(new Error('Not in the Stripe.js stand-in.'));
      },
      elements: function () {
        return {
          create: function (type) {
            if (type !== 'card') throw new Error('The Stripe.js stand-in only has the card element.');
            cards.card = createCard();
            return cards.card;
          },
          // A type, or a React component naming one (@stripe/react-stripe-js's `__elementType`).
          getElement: function (type) {
            return cards[typeof type === 'string' ? type : type && type.__elementType] || null;
          },
          update: function () {},
        };
      },
      confirmCardPayment: function (clientSecret, data) {
        var id = clientSecret.split('_secret_')[0];
        var card = data && data.payment_method && data.payment_method.card;
        var body = new URLSearchParams({
          client_secret: clientSecret,
          key: publishableKey,
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': card ? card._number() : '',
        });
        return fetch('https://api.stripe.com/v1/payment_intents/' + id + '/confirm', { method: 'POST', body: body })
          .then(function (res) {
            return res.json().then(function (json) {
              return res.ok ? { paymentIntent: json } : { error: json.error };
            });
          })
          .catch(function (err) {
            return { error: { type: 'api_connection_error', message: String(err) } };
          });
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
