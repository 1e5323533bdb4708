/**
 * The stand-in for the gateway's browser SDK (GET /monetaweb/resources/hfsdk.js). It defines the
 * global `Build` with the options, callbacks and states the production front ends use (pagoPA's
 * checkout and wallet, Nexi's WooCommerce scripts; docs/simulator.md lists them), so a
 * storefront written against the real SDK runs against the simulator unchanged:
 *
 *   new Build({ onBuildSuccess, onBuildError, onConfirmError, onBuildFlowStateChange,
 *               onAllFieldsLoaded, cssLink, defaultComponentCssClassName,
 *               defaultContainerCssClassName })
 *   build.confirmData(callback?)   the fields check the card; READY_FOR_PAYMENT follows, or onConfirmError
 *
 * The fields (field-page.ts) post their events to the merchant's page as `{ event, id, state,
 * errorCode, errorMessage, data }`, the shape Nexi's own script reads from window messages;
 * `Build` passes them to the callbacks. It accepts messages from the fields' origin only.
 */
import { createHash } from "node:crypto"

export const SDK_SCRIPT = `/* Nexi XPay simulator: stand-in for hfsdk.js (medusa-payment-nexi). */
(function () {
  "use strict";
  var current = document.currentScript;
  var FIELDS_ORIGIN = current && current.src ? new URL(current.src).origin : window.location.origin;

  function call(callback) {
    if (typeof callback !== "function") return;
    try {
      callback.apply(null, Array.prototype.slice.call(arguments, 1));
    } catch (error) {
      setTimeout(function () { throw error; });
    }
  }

  function Build(options) {
    if (!(this instanceof Build)) throw new TypeError("Build is a constructor: use new Build({ ... })");
    var self = this;
    this.options = options || {};
    this.fields = {};
    this.allLoaded = false;
    window.addEventListener("message", function (event) { self.receive(event); });
    // Fields that loaded before this Build existed introduce themselves again.
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (originOf(frames[i].src) === FIELDS_ORIGIN && frames[i].contentWindow) {
        frames[i].contentWindow.postMessage({ type: "NEXI_SIM_HELLO" }, FIELDS_ORIGIN);
      }
    }
  }

  function originOf(src) {
    try { return new URL(src, window.location.href).origin; } catch (error) { return ""; }
  }

  Build.prototype.receive = function (event) {
    var data = event.data;
    if (event.origin !== FIELDS_ORIGIN || !data || typeof data.event !== "string") return;
    var options = this.options;
    switch (data.event) {
      case "FIELD_LOADED":
        this.fields[data.id] = event.source;
        event.source.postMessage({
          type: "NEXI_SIM_STYLE",
          cssLink: options.cssLink,
          componentClass: options.defaultComponentCssClassName,
          containerClass: options.defaultContainerCssClassName
        }, FIELDS_ORIGIN);
        if (!this.allLoaded && data.fields.every(function (id) { return id in this.fields; }, this)) {
          this.allLoaded = true;
          call(options.onAllFieldsLoaded);
        }
        return;
      case "BUILD_SUCCESS":
        return call(options.onBuildSuccess, data);
      case "BUILD_ERROR":
        return call(options.onBuildError, data);
      case "BUILD_CONFIRM_ERROR":
        return call(options.onConfirmError, data);
      case "BUILD_FLOW_STATE_CHANGE":
        return call(options.onBuildFlowStateChange, data, data.state);
    }
  };

  /** Asks the fields to check the card; callback runs once the request is on its way. */
  Build.prototype.confirmData = function (callback) {
    var ids = Object.keys(this.fields);
    if (ids.length === 0) {
      call(this.options.onConfirmError, {
        event: "BUILD_CONFIRM_ERROR",
        errorCode: "HF0001",
        errorMessage: "no card field has loaded in this page",
        validationStatus: []
      });
      return;
    }
    this.fields[ids[0]].postMessage({ type: "NEXI_SIM_CONFIRM" }, FIELDS_ORIGIN);
    call(callback);
  };

  window.Build = Build;
})();
`

/** The script's Subresource Integrity hash, as GET /build/integrity answers it. */
export const SDK_INTEGRITY = `sha384-${createHash("sha384").update(SDK_SCRIPT).digest("base64")}`
