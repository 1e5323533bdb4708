import { NexiResult } from "./nexi-result"

export default async function NexiResultPage(props: {
  params: Promise<{ countryCode: string }>
  searchParams: Promise<{ cart_id?: string }>
}) {
  const { countryCode } = await props.params
  const { cart_id } = await props.searchParams
  return <NexiResult cartId={cart_id} countryCode={countryCode} />
}
