import { listCartShippingOptions, retrieveCart } from "@lib/data/cart"
import { retrieveCustomer } from "@lib/data/customer"
import { listMyNexiCards } from "@lib/data/nexi"
import { listCartPaymentMethods } from "@lib/data/payment"
import { NEXI_CARD_FIELDS } from "@lib/nexi-card-fields"
import { Addresses } from "@modules/checkout/components/addresses"
import { Payment } from "@modules/checkout/components/payment"
import { RefreshWithCookies } from "@modules/checkout/components/refresh-with-cookies"
import { Review } from "@modules/checkout/components/review"
import { Shipping } from "@modules/checkout/components/shipping"
import { formatAmount } from "@modules/common/money"

export const dynamic = "force-dynamic"

/** As the starters': one page, the step in `?step=`, each step a section of its own. */
export default async function CheckoutPage(props: { searchParams: Promise<{ step?: string; cart_id?: string }> }) {
  const { step = "address", cart_id } = await props.searchParams
  const cart = await retrieveCart()
  // Back from the hosted page's cancel (cancelUrl has cart_id): this request came without the cookies.
  if (!cart && cart_id) return <RefreshWithCookies />
  if (!cart) return <p data-testid="no-cart">Your cart is empty.</p>
  const customer = await retrieveCustomer()
  return (
    <div>
      <p data-testid="cart-total">{formatAmount(cart.total, cart.currency_code)}</p>
      {step === "address" ? <Addresses cart={cart} customerEmail={customer?.email} /> : null}
      {step === "delivery" ? <Shipping cart={cart} options={await listCartShippingOptions(cart.id)} /> : null}
      {step === "payment" ? (
        <Payment
          cart={cart}
          availablePaymentMethods={await listCartPaymentMethods(cart.region_id ?? "")}
          savedCards={customer ? await listMyNexiCards() : null}
          cardFields={NEXI_CARD_FIELDS.enabled}
        />
      ) : null}
      {step === "review" ? <Review cart={cart} sdkIntegrity={NEXI_CARD_FIELDS.sdkIntegrity} /> : null}
    </div>
  )
}
