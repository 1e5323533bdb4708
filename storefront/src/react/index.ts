/**
 * medusa-payment-nexi-storefront/react: hooks over the kit's functions, and one component, the
 * card fields of XPay Build (card-fields.ts), the only UI the kit has. Each
 * takes the work as functions, so the same hook runs over a server action (the Next.js
 * starters keep the customer's token in an httpOnly cookie only the server reads) or over the
 * kit's functions called in the browser with `sdk.client`.
 */
import { useCallback, useEffect, useState } from "react"
import type { PaymentOutcome } from "../payment-outcome.js"
import { type PollOptions, pollPaymentOutcome } from "../polling.js"
import type { SavedCard } from "../saved-cards.js"
import { useLatest } from "./latest.js"

export {
  type CardFieldsLabels,
  type CardPaymentView,
  DEFAULT_CARD_FIELDS_LABELS,
  DEFAULT_FIELD_TITLES,
  NexiCardFields,
  type NexiCardFieldsProps,
  type UseCardPaymentOptions,
  useCardPayment,
} from "./card-fields.js"

export interface PaymentOutcomeState {
  /** The last answer: pending ones too, while polling goes on. Undefined before the first. */
  outcome?: PaymentOutcome
  /** What the last check threw; polling has stopped. */
  error?: unknown
  /** True while checks are still coming. */
  polling: boolean
  /** Starts polling again, after it gave up on a pending payment or failed. */
  checkAgain: () => void
}

/**
 * Polls `check` until the payment is settled or the pauses run out, and stops when the
 * component unmounts. `key` says what is polled (the cart id, or the session id): a new key
 * starts over; undefined polls nothing.
 *
 *   const { outcome } = usePaymentOutcome(cartId, () => resolveNexiReturn(cartId))
 */
export function usePaymentOutcome(
  key: string | undefined,
  check: (signal?: AbortSignal) => Promise<PaymentOutcome>,
  poll?: PollOptions,
): PaymentOutcomeState {
  const latestCheck = useLatest(check)
  const latestPoll = useLatest(poll)
  const [state, setState] = useState<Omit<PaymentOutcomeState, "checkAgain">>({ polling: key !== undefined })
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: round restarts the polling on purpose; check and poll are read through refs
  useEffect(() => {
    if (key === undefined) {
      setState({ polling: false })
      return
    }
    const controller = new AbortController()
    setState({ polling: true })
    pollPaymentOutcome((signal) => latestCheck.current(signal), {
      signal: controller.signal,
      poll: latestPoll.current,
      onOutcome: (outcome) => setState({ outcome, polling: true }),
    }).then(
      (outcome) => setState({ outcome, polling: false }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState((last) => ({ outcome: last.outcome, error, polling: false }))
      },
    )
    return () => controller.abort()
  }, [key, round])
  const checkAgain = useCallback(() => setRound((last) => last + 1), [])
  return { ...state, checkAgain }
}

export interface SavedCardsActions {
  list: () => Promise<SavedCard[]>
  remove: (id: string) => Promise<void>
}

export interface SavedCardsState {
  /** Undefined until the first list arrives. */
  cards?: SavedCard[]
  loading: boolean
  /** What the last list or delete threw. */
  error?: unknown
  /** Deletes the card and drops it from `cards`; on failure sets `error` and keeps the card. */
  remove: (id: string) => Promise<void>
  reload: () => void
}

/**
 * The customer's saved cards, for the account page or the checkout's card choice.
 *
 *   const saved = useSavedCards({ list: () => listSavedCards(sdk.client), remove: (id) => deleteSavedCard(sdk.client, id) })
 */
export function useSavedCards(actions: SavedCardsActions): SavedCardsState {
  const latest = useLatest(actions)
  const [cards, setCards] = useState<SavedCard[] | undefined>(undefined)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>(undefined)
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: round reloads on purpose; the actions are read through a ref
  useEffect(() => {
    // A list that arrives after a newer one was asked for is stale.
    let current = true
    setLoading(true)
    latest.current.list().then(
      (listed) => {
        if (!current) return
        setCards(listed)
        setError(undefined)
        setLoading(false)
      },
      (failure: unknown) => {
        if (!current) return
        setError(failure)
        setLoading(false)
      },
    )
    return () => {
      current = false
    }
  }, [round])
  const remove = useCallback(
    async (id: string) => {
      try {
        await latest.current.remove(id)
        setCards((listed) => listed?.filter((card) => card.id !== id))
        setError(undefined)
      } catch (failure) {
        setError(failure)
      }
    },
    [latest],
  )
  const reload = useCallback(() => setRound((last) => last + 1), [])
  return { cards, loading, error, remove, reload }
}
