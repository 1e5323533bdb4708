/**
 * Stand-ins for the few @medusajs/ui components the docs' snippets use (the starters' design
 * system): same names and props, plain elements, so the snippets run here as written.
 */
import type { ButtonHTMLAttributes, ReactNode } from "react"

export function Button({
  isLoading,
  size: _size,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { isLoading?: boolean; size?: "small" | "base" | "large" }) {
  return (
    <button type="button" {...props} disabled={props.disabled || isLoading} aria-busy={isLoading || undefined}>
      {children}
    </button>
  )
}

export function Heading({ children }: { children: ReactNode }) {
  return <h1>{children}</h1>
}

export function Text({ children }: { children: ReactNode }) {
  return <p data-testid="text">{children}</p>
}

export function Spinner() {
  return <p data-testid="spinner">Please wait…</p>
}

export function ErrorMessage({ error }: { error?: string | null }) {
  return error ? <p data-testid="error-message">{error}</p> : null
}
