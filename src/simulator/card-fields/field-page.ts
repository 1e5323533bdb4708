/**
 * One card field of a Build session (GET /field.html?id=&sid=): the page the merchant's iframe
 * shows. The card data stays in these pages: each field checks its own value with the simulator
 * (POST /fields/check) when the shopper changes it, and on confirmData the field `Build` asks
 * gathers its siblings' values over a BroadcastChannel (they share the simulator's origin, not
 * the merchant's) and sends them together (POST /fields/confirm). Events go to the merchant's
 * page only (postMessage to the session's merchantUrl), in the shape sdk.ts describes.
 */

import type { PageLabels } from "../hpp/labels"
import { escapeHtml } from "../hpp/page"
import type { CardFieldId } from "./sessions"

export interface FieldPage {
  id: CardFieldId
  sessionId: string
  fieldIds: readonly CardFieldId[]
  merchantOrigin: string
  labels: PageLabels
}

const INPUTS: Record<CardFieldId, { label: keyof PageLabels; autocomplete: string; numeric: boolean }> = {
  CARD_NUMBER: { label: "cardNumber", autocomplete: "cc-number", numeric: true },
  EXPIRATION_DATE: { label: "expiry", autocomplete: "cc-exp", numeric: false },
  SECURITY_CODE: { label: "cvv", autocomplete: "cc-csc", numeric: true },
  CARDHOLDER_NAME: { label: "cardholderName", autocomplete: "cc-name", numeric: false },
}

/** A JSON value safe inside a <script> element. */
function scriptValue(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c")
}

export function fieldPage(page: FieldPage): string {
  const input = INPUTS[page.id]
  const label = String(page.labels[input.label])
  const placeholder = page.id === "EXPIRATION_DATE" ? page.labels.expiryPlaceholder : ""
  return `<!doctype html>
<html lang="${escapeHtml(page.labels.htmlLang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(label)}</title>
<style>html,body{margin:0;padding:0;background:transparent;font-family:system-ui,sans-serif;font-size:16px}
input{box-sizing:border-box;width:100%;font:inherit;border:0;outline:0;padding:4px 0;background:transparent}
#notice{color:#b42318;font-size:12px;margin:0}</style></head>
<body><div id="container"><input id="field" name="${page.id}" aria-label="${escapeHtml(label)}" placeholder="${escapeHtml(placeholder)}" autocomplete="${input.autocomplete}"${input.numeric ? ' inputmode="numeric"' : ""}></div>
<p id="notice" hidden></p>
<script>${fieldScript(page)}</script></body></html>`
}

function fieldScript(page: FieldPage): string {
  return `(function () {
  "use strict";
  var ID = ${scriptValue(page.id)}, SID = ${scriptValue(page.sessionId)};
  var FIELDS = ${scriptValue(page.fieldIds)}, MERCHANT = ${scriptValue(page.merchantOrigin)};
  var UNAVAILABLE = { errorCode: "HF0002", errorMessage: "the payment service is temporarily unavailable" };
  var input = document.getElementById("field");
  var channel = "BroadcastChannel" in window ? new BroadcastChannel("nexi-sim-build-" + SID) : null;

  function tell(data) { window.parent.postMessage(data, MERCHANT); }
  function loaded() { tell({ event: "FIELD_LOADED", id: ID, fields: FIELDS }); }
  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (json) { return { status: response.status, body: json }; },
          function () { return { status: response.status, body: {} }; });
      });
  }

  function check() {
    post("/fields/check", { sid: SID, id: ID, value: input.value }).then(function (answer) {
      var body = answer.body;
      if (answer.status >= 500) return tell({ event: "BUILD_ERROR", id: ID, errorCode: UNAVAILABLE.errorCode, errorMessage: UNAVAILABLE.errorMessage });
      if (body.valid) return tell({ event: "BUILD_SUCCESS", id: ID });
      tell({ event: "BUILD_ERROR", id: ID, errorCode: body.errorCode, errorMessage: body.errorMessage });
    }, function () {
      tell({ event: "BUILD_ERROR", id: ID, errorCode: UNAVAILABLE.errorCode, errorMessage: UNAVAILABLE.errorMessage });
    });
  }

  function confirmCard() {
    var values = {};
    values[ID] = input.value;
    var sent = false;
    function send() {
      if (sent) return;
      sent = true;
      if (channel) channel.onmessage = answerCollect;
      post("/fields/confirm", { sid: SID, values: values }).then(function (answer) {
        var body = answer.body;
        if (answer.status < 400 && body.state) {
          return tell({ event: "BUILD_FLOW_STATE_CHANGE", state: body.state, data: body.data || {} });
        }
        tell({
          event: "BUILD_CONFIRM_ERROR",
          errorCode: body.errorCode || UNAVAILABLE.errorCode,
          errorMessage: body.errorMessage || UNAVAILABLE.errorMessage,
          validationStatus: body.validationStatus || []
        });
      }, function () {
        tell({ event: "BUILD_CONFIRM_ERROR", errorCode: UNAVAILABLE.errorCode, errorMessage: UNAVAILABLE.errorMessage, validationStatus: [] });
      });
    }
    if (!channel || FIELDS.length === 1) return send();
    var nonce = Math.random().toString(36).slice(2);
    channel.onmessage = function (event) {
      var message = event.data;
      if (!message || message.type !== "value" || message.nonce !== nonce) return answerCollect(event);
      values[message.id] = message.value;
      if (FIELDS.every(function (id) { return id in values; })) send();
    };
    channel.postMessage({ type: "collect", nonce: nonce });
    // A field that never answers is sent as missing: the simulator names it.
    setTimeout(send, 2000);
  }

  function answerCollect(event) {
    var message = event.data;
    if (message && message.type === "collect") {
      channel.postMessage({ type: "value", nonce: message.nonce, id: ID, value: input.value });
    }
  }

  function applyStyle(style) {
    if (typeof style.cssLink === "string" && /^https?:/.test(style.cssLink) && !document.getElementById("merchant-css")) {
      var link = document.createElement("link");
      link.id = "merchant-css";
      link.rel = "stylesheet";
      link.href = style.cssLink;
      document.head.appendChild(link);
    }
    if (typeof style.componentClass === "string") input.className = style.componentClass;
    if (typeof style.containerClass === "string") document.getElementById("container").className = style.containerClass;
  }

  if (channel) channel.onmessage = answerCollect;
  window.addEventListener("message", function (event) {
    if (event.origin !== MERCHANT || event.source !== window.parent || !event.data) return;
    if (event.data.type === "NEXI_SIM_HELLO") loaded();
    else if (event.data.type === "NEXI_SIM_STYLE") applyStyle(event.data);
    else if (event.data.type === "NEXI_SIM_CONFIRM") confirmCard();
  });
  input.addEventListener("change", check);

  // The fields talk to the page of the session's merchantUrl only: say so where it would stay silent.
  var ancestors = window.location.ancestorOrigins;
  if (window.parent === window || (ancestors && ancestors.length > 0 && ancestors[0] !== MERCHANT)) {
    var notice = document.getElementById("notice");
    notice.textContent = "This card field belongs to a payment started for " + MERCHANT + " and talks to that page only.";
    notice.hidden = false;
  }
  loaded();
})();`
}
