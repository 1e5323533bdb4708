import Link from "next/link"
import type { ReactNode } from "react"

export const metadata = { title: "A plain Next.js shop taking Nexi cards" }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav>
          <Link href="/">Shop</Link> <Link href="/checkout">Checkout</Link>
        </nav>
        <main>{children}</main>
      </body>
    </html>
  )
}
