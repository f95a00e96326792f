// A local fake of the part of Stripe's API pawpath uses ("tested against a local fake of
// the provider's API that the tests start; no test reaches the internet"), for the browser tests
// and the server's API tests alike. No dependencies: node's own http and crypto.
//
// What it serves, shaped as Stripe's are:
// - GET  /v3/                          the browser library: Stripe(pk).elements().create('card')
//                                      mounts the provider's own card fields in an iframe;
//                                      stripe.createPaymentMethod({type, card, billing_details}).
// - GET  /elements/card                the iframe's page: card number, expiry and security code,
//                                      posted from the iframe to /v1/payment_methods, so the number
//                                      never passes through the page that embeds it.
// - POST /v1/payment_methods           (publishable key) a card → pm_…
// - GET  /v1/payment_methods/:id       (secret key)
// - POST /v1/customers                 (secret key, Idempotency-Key) email, metadata → cus_…; an
//                                      intent with setup_future_usage=off_session and a customer
//                                      attaches its card to the customer once it succeeds.
// - POST /v1/payment_intents           (secret key, Idempotency-Key) confirm=true with a return_url
// - GET  /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel
// - GET  /3ds/:id, POST /3ds/:id       the 3-D Secure challenge page: Complete or Fail; the
//                                      outcome's webhook is delivered (and answered) before the
//                                      browser is sent back to the return_url, as can happen live.
// - Webhooks: payment_intent.succeeded / payment_intent.payment_failed, POSTed to WEBHOOK_URL
//   with Stripe-Signature: t=…,v1=hex(HMAC-SHA256(secret, "t.body")).
//
// Test cards (Stripe's own): 4242 4242 4242 4242 and 5555 5555 5555 4444 pay;
// 4000 0027 6000 3184 asks for 3-D Secure; 4000 0000 0000 0002 is declined;
// 4000 0000 0000 9995 is declined for insufficient funds; Discover 6011 1111 1111 1117, Diners
// 3056 9300 0902 0004, UnionPay 6200 0000 0000 0005 and JCB 3566 0020 2036 0505 pay.
//
// - GET  /v1/payment_intents?customer=  the customer's intents, newest first (a list object)
// - POST /v1/refunds                   (secret key, Idempotency-Key) payment_intent → re_…; a
//                                      second refund of one intent is charge_already_refunded
// - Idempotency as Stripe keeps it: the first answer under a key (a 5xx too) is saved and
//   answered again to every request with that key and the same parameters, with
//   `Idempotent-Replayed: true`; other parameters are an idempotency_error.
//
// For tests: POST /_fake/config {webhook_url?, webhook_secret?, webhooks?: bool, and for the next
// payment intent creation only: delay_ms (its answer held that long after the intent is made, as
// a provider that times out after taking the payment does), drop (the connection closed with no
// answer after the intent is made), fail_status (the intent made, then answered with that 5xx,
// saved under the key), processing (the intent left `processing`), sdk (a 3-D Secure card's
// next action is `use_stripe_sdk`, which has no address to send a browser to)};
// POST /_fake/settle/:id {outcome: succeeded|failed} ends a processing intent and sends its
// webhook; GET /_fake/state lists intents, refunds and webhooks sent.
// PORT=0 picks a free port; the first line on stdout is `listening <port>`.
import { createServer } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';

const config = {
  publishable: process.env.PUBLISHABLE_KEY ?? 'pk_test_pawpath',
  secret: process.env.SECRET_KEY ?? 'sk_test_pawpath',
  webhookUrl: process.env.WEBHOOK_URL ?? '',
  webhookSecret: process.env.WEBHOOK_SECRET ?? 'whsec_pawpath_test',
  delayMs: 0,
  webhooks: true,
  next: {},
};
const paymentMethods = new Map();
const customers = new Map();
const intents = new Map();
const idempotent = new Map();
const refunds = [];
const sent = [];
let origin = '';

const id = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding: a[b][c]=v → {a: {b: {c: v}}}. */
function parseForm(text) {
  const out = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let at = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) at[part] = value;
      else at = at[part] ??= {};
    });
  }
  return out;
}

function luhn(digits) {
  let sum = 0;
  [...digits].reverse().forEach((d, i) => {
    let n = Number(d);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  });
  return digits.length >= 12 && sum % 10 === 0;
}

function brandOf(digits) {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(30[0-5]|36|38)/.test(digits)) return 'diners';
  if (/^(6011|65)/.test(digits)) return 'discover';
  if (/^62/.test(digits)) return 'unionpay';
  if (/^35/.test(digits)) return 'jcb';
  return 'unknown';
}

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json', 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Authorization, Content-Type', ...headers });
  res.end(text);
}

const stripeError = (res, status, type, code, message, extra = {}) => send(res, status, { error: { type, code, message, ...extra } });

function authorised(req, key) {
  return req.headers.authorization === `Bearer ${key}`;
}

function intentView(pi) {
  const { card, ...rest } = pi;
  return rest;
}

async function deliver(type, pi) {
  if (!config.webhooks || !config.webhookUrl) return;
  const event = { id: id('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object: intentView(pi) }, livemode: false };
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', config.webhookSecret).update(`${t}.${body}`).digest('hex');
  try {
    const response = await fetch(config.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': `t=${t},v1=${signature}` }, body });
    sent.push({ id: event.id, type, payment_intent: pi.id, status: response.status });
  } catch (e) {
    sent.push({ id: event.id, type, payment_intent: pi.id, status: 0, error: String(e) });
  }
}

/** A payment taken: a card to keep is attached to its customer, and the webhook sent. */
function succeeded(pi) {
  const pm = paymentMethods.get(pi.payment_method);
  if (pm && pi.setup_future_usage === 'off_session' && pi.customer) pm.customer = pi.customer;
  return deliver('payment_intent.succeeded', pi);
}

/**
 * Idempotency as Stripe keeps it: a request with a key seen before is answered again with the
 * first answer (a failure too), saying so; with other parameters it is an idempotency_error.
 * Answers whether it answered.
 */
function replayed(res, key, form) {
  if (!key || !idempotent.has(key)) return false;
  const earlier = idempotent.get(key);
  if (earlier.body !== JSON.stringify(form)) stripeError(res, 400, 'idempotency_error', 'idempotency_key_in_use', 'Keys for idempotent requests can only be used with the same parameters they were first used with.');
  else send(res, earlier.status, earlier.answer, { 'Idempotent-Replayed': 'true' });
  return true;
}

function createCustomer(req, res, form) {
  if (!authorised(req, config.secret)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
  const key = req.headers['idempotency-key'];
  if (replayed(res, key, form)) return undefined;
  const customer = { id: id('cus'), object: 'customer', email: form.email ?? null, metadata: form.metadata ?? {}, livemode: false };
  customers.set(customer.id, customer);
  if (key) idempotent.set(key, { body: JSON.stringify(form), status: 200, answer: customer });
  return send(res, 200, customer);
}

function paymentMethod(req, res, form) {
  if (!authorised(req, config.publishable)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
  const card = form.card ?? {};
  const digits = String(card.number ?? '').replace(/\s/g, '');
  if (!/^\d+$/.test(digits) || !luhn(digits) || brandOf(digits) === 'unknown') return stripeError(res, 402, 'card_error', 'incorrect_number', 'Your card number is incorrect.', { param: 'number' });
  const month = Number(card.exp_month);
  let year = Number(card.exp_year);
  if (year < 100) year += 2000;
  const now = new Date();
  if (!(month >= 1 && month <= 12)) return stripeError(res, 402, 'card_error', 'invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return stripeError(res, 402, 'card_error', 'invalid_expiry_year', "Your card's expiration year is invalid.", { param: 'exp_year' });
  const cvcLength = brandOf(digits) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(String(card.cvc ?? ''))) return stripeError(res, 402, 'card_error', 'invalid_cvc', "Your card's security code is invalid.", { param: 'cvc' });
  const pm = {
    id: id('pm'),
    object: 'payment_method',
    type: 'card',
    billing_details: { name: form.billing_details?.name ?? null, address: form.billing_details?.address ?? {} },
    card: { brand: brandOf(digits), last4: digits.slice(-4), exp_month: month, exp_year: year, funding: 'credit', country: 'GB' },
    livemode: false,
  };
  paymentMethods.set(pm.id, { ...pm, digits });
  const { digits: _, ...view } = paymentMethods.get(pm.id);
  return send(res, 200, view);
}

async function createIntent(req, res, form) {
  if (!authorised(req, config.secret)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
  const key = req.headers['idempotency-key'];
  if (replayed(res, key, form)) return undefined;
  const next = config.next;
  config.next = {};
  const pm = paymentMethods.get(form.payment_method);
  if (!pm) return stripeError(res, 400, 'invalid_request_error', 'resource_missing', `No such PaymentMethod: '${form.payment_method}'`, { param: 'payment_method' });
  if (form.customer !== undefined && !customers.has(form.customer)) return stripeError(res, 400, 'invalid_request_error', 'resource_missing', `No such customer: '${form.customer}'`, { param: 'customer' });
  const amount = Number(form.amount);
  if (!Number.isInteger(amount) || amount < 30) return stripeError(res, 400, 'invalid_request_error', 'amount_too_small', 'Amount must be at least £0.30 gbp', { param: 'amount' });
  const pi = {
    id: id('pi'),
    object: 'payment_intent',
    amount,
    currency: String(form.currency ?? '').toLowerCase(),
    payment_method: pm.id,
    client_secret: '',
    status: 'requires_confirmation',
    metadata: form.metadata ?? {},
    latest_charge: null,
    last_payment_error: null,
    next_action: null,
    return_url: form.return_url ?? null,
    setup_future_usage: form.setup_future_usage ?? null,
    customer: form.customer ?? null,
    livemode: false,
  };
  pi.client_secret = `${pi.id}_secret_${randomBytes(8).toString('hex')}`;
  intents.set(pi.id, pi);
  let status = 200;
  let answer;
  if (form.confirm === 'true') {
    if (pm.digits === '4000000000000002' || pm.digits === '4000000000009995') {
      const decline = pm.digits === '4000000000000002' ? 'generic_decline' : 'insufficient_funds';
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { type: 'card_error', code: 'card_declined', decline_code: decline, message: 'Your card was declined.' };
      status = 402;
      answer = { error: { type: 'card_error', code: 'card_declined', decline_code: decline, message: 'Your card was declined.', payment_intent: intentView(pi) } };
    } else if (pm.digits === '4000002760003184' && next.sdk) {
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${origin}/3ds/${pi.id}` } };
      answer = intentView(pi);
    } else if (pm.digits === '4000002760003184') {
      if (!pi.return_url) {
        status = 400;
        answer = { error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'A return_url is needed to confirm a payment that requires action.', param: 'return_url' } };
      } else {
        pi.status = 'requires_action';
        pi.next_action = { type: 'redirect_to_url', redirect_to_url: { url: `${origin}/3ds/${pi.id}`, return_url: pi.return_url } };
        answer = intentView(pi);
      }
    } else if (next.processing) {
      pi.status = 'processing';
      answer = intentView(pi);
    } else {
      pi.status = 'succeeded';
      pi.latest_charge = id('ch');
      answer = intentView(pi);
    }
  } else {
    answer = intentView(pi);
  }
  if (next.fail_status) {
    // Stripe saves a failure that happened once the request began, and replays it.
    status = next.fail_status;
    answer = { error: { type: 'api_error', message: 'An unknown error occurred' } };
  }
  if (key) idempotent.set(key, { body: JSON.stringify(form), status, answer });
  if (pi.status === 'succeeded') succeeded(pi);
  if (config.delayMs > 0) {
    const delay = config.delayMs;
    config.delayMs = 0;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  if (next.drop) {
    res.socket?.destroy();
    return undefined;
  }
  return send(res, status, answer);
}

function listIntents(req, res, url) {
  if (!authorised(req, config.secret)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
  const customer = url.searchParams.get('customer');
  const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 100);
  const data = [...intents.values()].filter((pi) => !customer || pi.customer === customer).reverse().slice(0, limit).map(intentView);
  return send(res, 200, { object: 'list', url: '/v1/payment_intents', has_more: false, data });
}

function refund(req, res, form) {
  if (!authorised(req, config.secret)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
  const key = req.headers['idempotency-key'];
  if (replayed(res, key, form)) return undefined;
  const pi = intents.get(form.payment_intent);
  let status = 200;
  let answer;
  if (!pi) {
    status = 400;
    answer = { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${form.payment_intent}'`, param: 'payment_intent' } };
  } else if (pi.status !== 'succeeded') {
    status = 400;
    answer = { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This PaymentIntent does not have a successful charge to refund.' } };
  } else if (refunds.some((r) => r.payment_intent === pi.id)) {
    status = 400;
    answer = { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${pi.latest_charge} has already been refunded.` } };
  } else {
    answer = { id: id('re'), object: 'refund', amount: pi.amount, currency: pi.currency, payment_intent: pi.id, charge: pi.latest_charge, status: 'succeeded' };
    refunds.push(answer);
  }
  if (key) idempotent.set(key, { body: JSON.stringify(form), status, answer });
  return send(res, status, answer);
}

async function settleProcessing(res, piId, form) {
  const pi = intents.get(piId);
  if (!pi || pi.status !== 'processing') return stripeError(res, 400, 'invalid_request_error', 'payment_intent_unexpected_state', 'Not processing.');
  if (form.outcome === 'succeeded') {
    pi.status = 'succeeded';
    pi.latest_charge = id('ch');
    await succeeded(pi);
  } else {
    pi.status = 'requires_payment_method';
    pi.last_payment_error = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
    await deliver('payment_intent.payment_failed', pi);
  }
  return send(res, 200, intentView(pi));
}

function challengePage(pi) {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test card authentication</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1a1a1a;background:#f6f8fa}main{max-width:28rem;margin:auto;background:#fff;border:1px solid #c4c9d0;border-radius:8px;padding:1.5rem}button{font:inherit;padding:.6rem 1.2rem;margin:.25rem .5rem .25rem 0;border-radius:6px;border:2px solid #0a2540;cursor:pointer}.ok{background:#0a2540;color:#fff}.no{background:#fff;color:#0a2540}button:focus-visible{outline:3px solid #f5a623;outline-offset:2px}</style></head>
<body><main><h1>Test card authentication</h1><p>Your bank asks you to confirm a payment of £${(pi.amount / 100).toFixed(2)}.</p>
<form method="post" action="/3ds/${pi.id}"><button class="ok" name="outcome" value="complete">Complete authentication</button><button class="no" name="outcome" value="fail">Fail authentication</button></form></main></body></html>`;
}

async function challenge(req, res, piId, form) {
  const pi = intents.get(piId);
  if (!pi) return send(res, 404, '<!doctype html><title>Not found</title><p>No such payment.</p>');
  if (req.method === 'GET') return send(res, 200, challengePage(pi));
  if (pi.status === 'requires_action') {
    pi.next_action = null;
    if (form.outcome === 'complete') {
      pi.status = 'succeeded';
      pi.latest_charge = id('ch');
      await succeeded(pi);
    } else {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { type: 'card_error', code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method.' };
      await deliver('payment_intent.payment_failed', pi);
    }
  }
  const back = new URL(pi.return_url);
  back.searchParams.set('payment_intent', pi.id);
  back.searchParams.set('payment_intent_client_secret', pi.client_secret);
  back.searchParams.set('redirect_status', pi.status === 'succeeded' ? 'succeeded' : 'failed');
  res.writeHead(303, { Location: back.toString() });
  res.end();
}

const LIBRARY = () => `(function () {
  var ORIGIN = ${JSON.stringify(origin)};
  function Stripe(key, options) {
    var frames = [];
    var waiting = {};
    var counter = 0;
    window.addEventListener('message', function (event) {
      if (event.origin !== ORIGIN || !event.data || !event.data.fakeStripe) return;
      var d = event.data;
      if (d.kind === 'change') frames.forEach(function (f) { if (f.id === d.element) f.listeners.forEach(function (l) { l({ complete: d.complete, empty: d.empty, error: d.error || undefined }); }); });
      if (d.kind === 'result' && waiting[d.request]) { waiting[d.request](d.result); delete waiting[d.request]; }
    });
    return {
      elements: function (opts) {
        var locale = (opts && opts.locale) || 'en-GB';
        return {
          create: function (type) {
            var element = { id: 'el' + (++counter), listeners: [], frame: null };
            frames.push(element);
            element.mount = function (target) {
              var host = typeof target === 'string' ? document.querySelector(target) : target;
              var frame = document.createElement('iframe');
              frame.title = 'Secure card payment input frame';
              frame.src = ORIGIN + '/elements/card#' + encodeURIComponent(JSON.stringify({ key: key, element: element.id, locale: locale, parent: window.location.origin }));
              frame.setAttribute('allow', 'payment');
              frame.style.border = '0'; frame.style.width = '100%'; frame.style.height = '12rem';
              host.appendChild(frame);
              element.frame = frame;
            };
            element.on = function (name, listener) { if (name === 'change') element.listeners.push(listener); };
            element.focus = function () { if (element.frame) element.frame.focus(); };
            element.unmount = element.destroy = function () { if (element.frame) element.frame.remove(); element.frame = null; };
            return element;
          },
        };
      },
      createPaymentMethod: function (request) {
        var element = request.card || request.elements;
        return new Promise(function (resolve) {
          var n = 'req' + (++counter);
          waiting[n] = resolve;
          element.frame.contentWindow.postMessage({ fakeStripe: true, kind: 'create', request: n, billing_details: request.billing_details || {} }, ORIGIN);
        });
      },
    };
  }
  window.Stripe = Stripe;
})();`;

const CARD_FRAME = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Card details</title>
<style>body{font:16px/1.4 system-ui,sans-serif;margin:0;padding:2px;color:#1a1a1a}label{display:block;font-weight:600;margin:.5rem 0 .25rem}input{font:inherit;padding:.5rem;border:2px solid #505a5f;border-radius:4px;width:100%;box-sizing:border-box;max-width:20rem}input:focus{outline:3px solid #ffdd00;outline-offset:0}.row{display:flex;gap:1rem}.row>div{flex:1}</style></head>
<body><div><label for="number">Card number</label><input id="number" inputmode="numeric" autocomplete="cc-number" spellcheck="false"></div>
<div class="row"><div><label for="expiry">Expiry date (MM/YY)</label><input id="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY"></div>
<div><label for="cvc">Security code</label><input id="cvc" inputmode="numeric" autocomplete="cc-csc"></div></div>
<script src="/elements/card.js"></script></body></html>`;

const CARD_FRAME_JS = `(function () {
  var settings = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  function value(idOf) { return document.getElementById(idOf).value.trim(); }
  function report() {
    var empty = !value('number') && !value('expiry') && !value('cvc');
    var complete = /^[0-9 ]{15,19}$/.test(value('number')) && /^[0-9]{2}\\/[0-9]{2}$/.test(value('expiry')) && /^[0-9]{3,4}$/.test(value('cvc'));
    parent.postMessage({ fakeStripe: true, kind: 'change', element: settings.element, complete: complete, empty: empty }, settings.parent);
  }
  ['number', 'expiry', 'cvc'].forEach(function (n) { document.getElementById(n).addEventListener('input', report); });
  window.addEventListener('message', function (event) {
    if (event.origin !== settings.parent || !event.data || event.data.kind !== 'create') return;
    var expiry = value('expiry').split('/');
    var form = new URLSearchParams();
    form.set('type', 'card');
    form.set('card[number]', value('number').replace(/ /g, ''));
    form.set('card[exp_month]', expiry[0] || '');
    form.set('card[exp_year]', expiry[1] || '');
    form.set('card[cvc]', value('cvc'));
    var billing = event.data.billing_details || {};
    if (billing.name) form.set('billing_details[name]', billing.name);
    Object.keys(billing.address || {}).forEach(function (k) { if (billing.address[k]) form.set('billing_details[address][' + k + ']', billing.address[k]); });
    fetch('/v1/payment_methods', { method: 'POST', headers: { Authorization: 'Bearer ' + settings.key, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        var result = body.error ? { error: { type: body.error.type, code: body.error.code, message: body.error.message, param: body.error.param } } : { paymentMethod: body };
        parent.postMessage({ fakeStripe: true, kind: 'result', request: event.data.request, result: result }, settings.parent);
      })
      .catch(function () {
        parent.postMessage({ fakeStripe: true, kind: 'result', request: event.data.request, result: { error: { type: 'api_connection_error', message: 'Network error' } } }, settings.parent);
      });
  });
})();`;

const server = createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > 65536) req.destroy();
    else chunks.push(c);
  });
  req.on('end', async () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url, origin);
    const path = url.pathname;
    const form = (req.headers['content-type'] ?? '').startsWith('application/json') ? JSON.parse(raw || '{}') : parseForm(raw);
    try {
      if (req.method === 'OPTIONS') return send(res, 204, '');
      if (path === '/healthz') return send(res, 200, { ok: true });
      if (path === '/favicon.ico') return send(res, 204, '');
      if (path === '/v3/' || path === '/v3') return send(res, 200, LIBRARY(), { 'Content-Type': 'text/javascript; charset=utf-8' });
      if (path === '/elements/card') return send(res, 200, CARD_FRAME);
      if (path === '/elements/card.js') return send(res, 200, CARD_FRAME_JS, { 'Content-Type': 'text/javascript; charset=utf-8' });
      if (path === '/_fake/config' && req.method === 'POST') {
        if (typeof form.webhook_url === 'string') config.webhookUrl = form.webhook_url;
        if (typeof form.webhook_secret === 'string') config.webhookSecret = form.webhook_secret;
        if (typeof form.delay_ms === 'number') config.delayMs = form.delay_ms;
        if (typeof form.webhooks === 'boolean') config.webhooks = form.webhooks;
        for (const k of ['drop', 'fail_status', 'processing', 'sdk']) if (form[k] !== undefined) config.next[k] = form[k];
        return send(res, 200, { ok: true });
      }
      if (path === '/_fake/state') {
        const methods = [...paymentMethods.values()].map(({ digits: _, ...view }) => view);
        return send(res, 200, { intents: [...intents.values()].map(intentView), refunds, webhooks: sent, customers: [...customers.values()], payment_methods: methods });
      }
      let settle = path.match(/^\/_fake\/settle\/([A-Za-z0-9_]+)$/);
      if (settle && req.method === 'POST') return await settleProcessing(res, settle[1], form);
      if (path === '/v1/refunds' && req.method === 'POST') return refund(req, res, form);
      if (path === '/v1/payment_intents' && req.method === 'GET') return listIntents(req, res, url);
      if (path === '/v1/customers' && req.method === 'POST') return createCustomer(req, res, form);
      if (path === '/v1/payment_methods' && req.method === 'POST') return paymentMethod(req, res, form);
      let m = path.match(/^\/v1\/payment_methods\/([A-Za-z0-9_]+)$/);
      if (m && req.method === 'GET') {
        if (!authorised(req, config.secret)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
        const pm = paymentMethods.get(m[1]);
        if (!pm) return stripeError(res, 404, 'invalid_request_error', 'resource_missing', `No such PaymentMethod: '${m[1]}'`);
        const { digits: _, ...view } = pm;
        return send(res, 200, view);
      }
      if (path === '/v1/payment_intents' && req.method === 'POST') return await createIntent(req, res, form);
      m = path.match(/^\/v1\/payment_intents\/([A-Za-z0-9_]+)(\/cancel)?$/);
      if (m) {
        if (!authorised(req, config.secret)) return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
        const pi = intents.get(m[1]);
        if (!pi) return stripeError(res, 404, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${m[1]}'`);
        if (m[2] && req.method === 'POST') {
          if (pi.status === 'succeeded') return stripeError(res, 400, 'invalid_request_error', 'payment_intent_unexpected_state', 'You cannot cancel this PaymentIntent because it has a status of succeeded.', { payment_intent: intentView(pi) });
          pi.status = 'canceled';
          pi.next_action = null;
        }
        return send(res, 200, intentView(pi));
      }
      m = path.match(/^\/3ds\/([A-Za-z0-9_]+)$/);
      if (m) return await challenge(req, res, m[1], form);
      return stripeError(res, 404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (${req.method}: ${path}).`);
    } catch (e) {
      return stripeError(res, 500, 'api_error', 'internal', String(e));
    }
  });
});

server.listen(Number(process.env.PORT ?? 12111), '127.0.0.1', () => {
  const { port } = server.address();
  origin = `http://127.0.0.1:${port}`;
  console.log(`listening ${port}`);
});
