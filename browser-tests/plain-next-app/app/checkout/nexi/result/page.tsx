import { NexiResult } from "./nexi-result"

export default async function NexiResultPage(props: { searchParams: Promise<{ cart_id?: string }> }) {
  const { cart_id } = await props.searchParams
  return <NexiResult cartId={cart_id} />
}
