/**
 * medusa-payment-nexi-storefront: plain functions over a store API client, for any framework.
 * React hooks over them: medusa-payment-nexi-storefront/react.
 */

export {
  type BuildConstructor,
  type BuildEvent,
  type BuildInstance,
  type BuildOptions,
  BuildSdkError,
  type LoadSdkOptions,
  loadBuildSdk,
  type MountOptions,
  mountCardFields,
} from "./build-sdk.js"
export {
  type CardField,
  type CardFieldsNextStep,
  type CardFieldsSession,
  cardFieldsOf,
  finalizeCardPayment,
  hasCardFields,
  NoCardFieldsError,
} from "./card-fields.js"
export {
  type CardFieldsStyle,
  type CardPayment,
  type CardPaymentNotice,
  type CardPaymentOptions,
  type CardPaymentState,
  type CardPaymentWork,
  type FieldProblems,
  startCardPayment,
} from "./card-payment.js"
export {
  type FetchClientConfig,
  type FetchFunction,
  type NexiStoreClient,
  NexiStoreError,
  type RequestOptions,
  type StoreRequest,
  storeClientFromFetch,
} from "./client.js"
export {
  CART_PAYMENT_FIELDS,
  type CartLike,
  hostedPageOf,
  NoHostedPageError,
  nexiSessionOf,
  type PaymentSessionLike,
  retrieveNexiSession,
} from "./hosted-page.js"
export {
  getPaymentLinkOutcome,
  type PaymentLinkOutcome,
  type PaymentLinkReturn,
  type PaymentLinkStatus,
} from "./payment-link.js"
export { listPaymentMethods, type NexiPaymentMethod, type NexiWallet } from "./payment-methods.js"
export {
  getSessionStatus,
  type NexiSessionStatus,
  outcomeOfStatus,
  type PaymentOutcome,
  type ReturnInput,
  readPaymentOutcome,
  resolveReturn,
  type SessionOfCart,
} from "./payment-outcome.js"
export { type PollControl, type PollOptions, pollDelays, pollPaymentOutcome, waitForPaymentOutcome } from "./polling.js"
export {
  isNexiCardProvider,
  isNexiMobileProvider,
  isNexiProvider,
  type NexiProvider,
  parseNexiProviderId,
} from "./providers.js"
export {
  deleteSavedCard,
  listSavedCards,
  type SaveCardInput,
  type SaveCardStarted,
  type SavedCard,
  startSavingCard,
} from "./saved-cards.js"
export {
  type CardIntegration,
  type CardSessionData,
  type CardSessionInput,
  cardSessionData,
  type LanguageChoice,
  type MobileSessionData,
  type MobileSessionInput,
  mobileSessionData,
  NexiInputError,
} from "./session-data.js"
