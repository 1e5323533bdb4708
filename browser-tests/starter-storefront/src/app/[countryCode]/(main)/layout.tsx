import { LocalizedClientLink } from "@modules/common/localized-client-link"
import type { ReactNode } from "react"

export default function MainLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <nav>
        <LocalizedClientLink href="/">Store</LocalizedClientLink>{" "}
        <LocalizedClientLink href="/cart">Cart</LocalizedClientLink>{" "}
        <LocalizedClientLink href="/account">Account</LocalizedClientLink>
      </nav>
      <main>{children}</main>
    </>
  )
}
