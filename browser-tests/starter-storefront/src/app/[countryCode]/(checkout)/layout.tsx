import type { ReactNode } from "react"

export default function CheckoutLayout({ children }: { children: ReactNode }) {
  return <main data-testid="checkout">{children}</main>
}
