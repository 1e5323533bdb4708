import { useRef } from "react"

/** The latest value of what the caller passes inline (functions, options), without restarting an effect on every render. */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value)
  ref.current = value
  return ref
}
