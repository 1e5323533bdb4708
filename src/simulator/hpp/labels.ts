/**
 * What the hosted page says, in the language its order was created with (paymentSession.language,
 * ISO 639-2), so a test can see which language reached the gateway. English and Italian are
 * written out; any other language keeps its `lang` attribute and reads English. The card checks'
 * own details ("is not a valid card number") stay in English in every language.
 */
import { ISO6392_BY_ISO6391 } from "../../i18n/languages"
import type { CardField } from "../cards"

export interface PageLabels {
  /** The `lang` attribute: the shortest tag of the language (BCP 47), "it" for "ita". */
  htmlLang: string
  /** The gateway's code, as the order carries it. */
  language: string
  payment: string
  verifyCard: string
  pay: (amount: string) => string
  noCharge: string
  bankChecksCard: string
  cardholderName: string
  cardNumber: string
  expiry: string
  expiryPlaceholder: string
  cvv: string
  cvvDigits: (digits: number) => string
  cancel: string
  saveNew: string
  saveReplacing: string
  payWithSavedCard: string
  /** The wallet's own name: "Google Pay". */
  payWithWallet: (wallet: string) => string
  challengeTitle: string
  challengeNotice: string
  approve: string
  failAuthentication: string
  notFound: string
  noSuchPage: string
  noSuchPageOrLink: string
  closedTitle: string
  closedNotice: string
  linkClosedTitle: string
  /** `reason` is the gateway's own words (cancelled, expired), in English in every language. */
  linkClosedNotice: (reason: string) => string
  cancelledTitle: string
  cancelledNotice: string
  paidTitle: string
  paidNotice: string
  verifiedTitle: string
  verifiedNotice: string
  notCompletedTitle: string
  declinedWithReason: (reason: string) => string
  declined: string
  authenticationFailed: string
  backToShop: string
  invalidCard: (field: CardField, detail: string) => string
}

type Words = Omit<PageLabels, "htmlLang" | "language">

const ENGLISH: Words = {
  payment: "Payment",
  verifyCard: "Verify card",
  pay: (amount) => `Pay ${amount}`,
  noCharge: "No charge",
  bankChecksCard: "Your bank checks the card; nothing will be charged.",
  cardholderName: "Cardholder name",
  cardNumber: "Card number",
  expiry: "Expiry (MM/YY)",
  expiryPlaceholder: "MM/YY",
  cvv: "CVV",
  cvvDigits: (digits) => `CVV (${digits} digits)`,
  cancel: "Cancel and return to the shop",
  saveNew: "This card will be saved for future purchases.",
  saveReplacing: "This card will be saved for future purchases, replacing your saved card.",
  payWithSavedCard: "Pay with your saved card",
  payWithWallet: (wallet) => `Pay with ${wallet}`,
  challengeTitle: "3-D Secure",
  challengeNotice: "Your bank asks you to confirm this payment.",
  approve: "Approve",
  failAuthentication: "Fail authentication",
  notFound: "Not found",
  noSuchPage: "This payment page does not exist.",
  noSuchPageOrLink: "This payment page does not exist or its link is incomplete.",
  closedTitle: "Payment closed",
  closedNotice: "This payment is already completed or cancelled; it cannot be paid again.",
  linkClosedTitle: "Link closed",
  linkClosedNotice: (reason) => `This payment link cannot be paid: ${reason}.`,
  cancelledTitle: "Cancelled",
  cancelledNotice: "The payment was cancelled.",
  paidTitle: "Paid",
  paidNotice: "Payment approved. You can close this window.",
  verifiedTitle: "Verified",
  verifiedNotice: "Card verified. Nothing was charged. You can close this window.",
  notCompletedTitle: "Payment not completed",
  declinedWithReason: (reason) => `Your payment was declined: ${reason}. No money was taken.`,
  declined: "Your card was declined by the issuer. No money was taken.",
  authenticationFailed: "The 3-D Secure authentication failed. No money was taken.",
  backToShop: "Return to the shop",
  invalidCard: (field, detail) => `Card ${{ pan: "number", expiryDate: "expiry date", cvv: "CVV" }[field]} ${detail}.`,
}

const ITALIAN: Words = {
  payment: "Pagamento",
  verifyCard: "Verifica la carta",
  pay: (amount) => `Paga ${amount}`,
  noCharge: "Nessun addebito",
  bankChecksCard: "La tua banca verifica la carta; non verrà addebitato nulla.",
  cardholderName: "Titolare della carta",
  cardNumber: "Numero della carta",
  expiry: "Scadenza (MM/AA)",
  expiryPlaceholder: "MM/AA",
  cvv: "CVV",
  cvvDigits: (digits) => `CVV (${digits} cifre)`,
  cancel: "Annulla e torna al negozio",
  saveNew: "Questa carta verrà salvata per i prossimi acquisti.",
  saveReplacing: "Questa carta verrà salvata per i prossimi acquisti, al posto della carta salvata.",
  payWithSavedCard: "Paga con la carta salvata",
  payWithWallet: (wallet) => `Paga con ${wallet}`,
  challengeTitle: "3-D Secure",
  challengeNotice: "La tua banca ti chiede di confermare questo pagamento.",
  approve: "Conferma",
  failAuthentication: "Autenticazione non riuscita",
  notFound: "Pagina non trovata",
  noSuchPage: "Questa pagina di pagamento non esiste.",
  noSuchPageOrLink: "Questa pagina di pagamento non esiste o il suo link è incompleto.",
  closedTitle: "Pagamento chiuso",
  closedNotice: "Questo pagamento è già concluso o annullato; non può essere pagato di nuovo.",
  linkClosedTitle: "Link chiuso",
  linkClosedNotice: (reason) => `Questo link di pagamento non può essere pagato: ${reason}.`,
  cancelledTitle: "Annullato",
  cancelledNotice: "Il pagamento è stato annullato.",
  paidTitle: "Pagato",
  paidNotice: "Pagamento approvato. Puoi chiudere questa finestra.",
  verifiedTitle: "Verificata",
  verifiedNotice: "Carta verificata. Non è stato addebitato nulla. Puoi chiudere questa finestra.",
  notCompletedTitle: "Pagamento non completato",
  declinedWithReason: (reason) => `Il pagamento è stato rifiutato: ${reason}. Non è stato addebitato nulla.`,
  declined: "La carta è stata rifiutata dall'emittente. Non è stato addebitato nulla.",
  authenticationFailed: "L'autenticazione 3-D Secure non è riuscita. Non è stato addebitato nulla.",
  backToShop: "Torna al negozio",
  invalidCard: (field, detail) =>
    `${{ pan: "Numero della carta", expiryDate: "Scadenza", cvv: "CVV" }[field]} non valido: ${detail}.`,
}

const WORDS: Readonly<Record<string, Words>> = { eng: ENGLISH, ita: ITALIAN }

const SHORTEST_TAG: ReadonlyMap<string, string> = new Map(
  [...ISO6392_BY_ISO6391].map(([iso6391, iso6392]) => [iso6392, iso6391]),
)

/** The page's words for an order's language; a page with no known order (404) is in English. */
export function labelsFor(language: string | undefined): PageLabels {
  const code = language ?? "eng"
  return { ...(WORDS[code] ?? ENGLISH), htmlLang: SHORTEST_TAG.get(code) ?? code, language: code }
}
