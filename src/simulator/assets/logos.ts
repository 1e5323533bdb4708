/**
 * Small logos for GET /payment_methods' imageLink, drawn here (a coloured card with the
 * circuit's name) so the simulator ships no third-party artwork.
 */
interface LogoStyle {
  label: string
  background: string
  foreground: string
}

const LOGOS: Readonly<Record<string, LogoStyle>> = {
  visa: { label: "VISA", background: "#1a1f71", foreground: "#ffffff" },
  mc: { label: "MC", background: "#eb001b", foreground: "#ffffff" },
  maestro: { label: "Maestro", background: "#0099df", foreground: "#ffffff" },
  amex: { label: "AMEX", background: "#2e77bc", foreground: "#ffffff" },
  paypal: { label: "PayPal", background: "#ffffff", foreground: "#003087" },
  googlepay: { label: "G Pay", background: "#ffffff", foreground: "#3c4043" },
  applepay: { label: "Pay", background: "#000000", foreground: "#ffffff" },
  satispay: { label: "Satispay", background: "#ef3e42", foreground: "#ffffff" },
}

export function logoNames(): string[] {
  return Object.keys(LOGOS)
}

/** The SVG of a logo, or undefined for an unknown name. */
export function logoSvg(name: string): string | undefined {
  const style = LOGOS[name]
  if (!style) return undefined
  const fontSize = style.label.length > 5 ? 11 : 14
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40">',
    `<rect x="0.5" y="0.5" width="63" height="39" rx="6" fill="${style.background}" stroke="#d0d5dd"/>`,
    `<text x="32" y="25" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-weight="700" font-size="${fontSize}" fill="${style.foreground}">${style.label}</text>`,
    "</svg>",
  ].join("")
}
