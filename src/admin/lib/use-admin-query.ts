/**
 * Loads one admin resource and reloads it on demand (after an action). Plain React state: the
 * plugin declares no data-fetching library, and one read per widget needs none. A response
 * that arrives after the key changed or the widget unmounted is dropped.
 */
import { useCallback, useEffect, useRef, useState } from "react"

export interface AdminQuery<T> {
  data: T | undefined
  error: unknown
  loading: boolean
  reload: () => void
}

/** `key` null: nothing to load (the widget already knows there is nothing to show). */
export function useAdminQuery<T>(key: string | null, load: () => Promise<T>): AdminQuery<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<unknown>()
  const [loading, setLoading] = useState(key !== null)
  const [version, setVersion] = useState(0)
  // The latest loader, read when a load starts, so a caller's inline arrow does not reload on every render.
  const loadRef = useRef(load)
  loadRef.current = load

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the reload trigger
  useEffect(() => {
    if (key === null) return
    let current = true
    setLoading(true)
    loadRef.current().then(
      (value) => {
        if (!current) return
        setData(value)
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
  }, [key, version])

  const reload = useCallback(() => setVersion((value) => value + 1), [])
  return { data, error, loading, reload }
}
