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

export function Heading({ children, className }: { children: ReactNode; level?: "h1" | "h2"; className?: string }) {
  return <h1 className={className}>{children}</h1>
}

export function Text({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p data-testid="text" className={className}>
      {children}
    </p>
  )
}

export function Spinner() {
  return <p data-testid="spinner">Please wait…</p>
}

export function ErrorMessage({ error }: { error?: string | null }) {
  return error ? <p data-testid="error-message">{error}</p> : null
}
