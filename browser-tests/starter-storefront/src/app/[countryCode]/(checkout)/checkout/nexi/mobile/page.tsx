import { NexiMobileWait } from "./nexi-mobile-wait"

export default async function NexiMobilePage(props: {
  params: Promise<{ countryCode: string }>
  searchParams: Promise<{ cart_id?: string; session_id?: string }>
}) {
  const { countryCode } = await props.params
  const { cart_id, session_id } = await props.searchParams
  return <NexiMobileWait cartId={cart_id ?? ""} sessionId={session_id ?? ""} countryCode={countryCode} />
}
