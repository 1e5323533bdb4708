/**
 * A logged-in customer's saved cards, for the store routes under /store/nexi/saved-cards.
 * Everything goes through Medusa's payment module, so the card provider (saved-card-methods.ts)
 * decides, and the customer's account holder is the one Medusa links to the customer:
 * created here the same way Medusa's checkout creates it, when the customer saves a card
 * before ever paying.
 */
import type {
  IPaymentModuleService,
  MedusaContainer,
  PaymentCustomerDTO,
  PaymentMethodDTO,
} from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { MERCHANT_CHARGES_KEY, type SavedCardView } from "../core/card/saved-card-choice"
import { verificationCurrency, verificationReturnUrl } from "../core/card/saved-card-methods"
import { cardProviderIdOf, isNexiCardProviderId, requireNexiOptions } from "../core/store-entries"
import { LANGUAGE_KEY } from "../i18n/page-language"

export type ShopperSavedCard = SavedCardView & { provider_id: string }

type AccountHolderRow = { id: string; provider_id: string; external_id: string; data: Record<string, unknown> }
type CustomerRow = PaymentCustomerDTO & { account_holders?: Array<AccountHolderRow | null> }

async function customerOf(container: MedusaContainer, customerId: string): Promise<CustomerRow> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "customer",
    fields: ["id", "email", "first_name", "last_name", "phone", "account_holders.*"],
    filters: { id: customerId },
  })
  const customer = data[0] as CustomerRow | undefined
  if (!customer) throw new MedusaError(MedusaError.Types.NOT_FOUND, "The logged-in customer does not exist.")
  return customer
}

function nexiHoldersOf(customer: CustomerRow): AccountHolderRow[] {
  return (customer.account_holders ?? []).flatMap((holder) =>
    holder && isNexiCardProviderId(holder.provider_id) ? [holder] : [],
  )
}

export async function listSavedCards(container: MedusaContainer, customerId: string): Promise<ShopperSavedCard[]> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const customer = await customerOf(container, customerId)
  const lists = await Promise.all(
    nexiHoldersOf(customer).map(async (holder) => {
      const methods = await payment.listPaymentMethods({
        provider_id: holder.provider_id,
        context: { account_holder: holder },
      })
      return methods.map((method) => ({
        ...(method.data as unknown as SavedCardView),
        provider_id: holder.provider_id,
      }))
    }),
  )
  return lists.flat().sort((a, b) => b.created_at.localeCompare(a.created_at))
}

/** The customer's account holder of the provider, linked to the customer as Medusa's checkout links it. */
async function accountHolderOf(
  container: MedusaContainer,
  customer: CustomerRow,
  providerId: string,
): Promise<AccountHolderRow> {
  const existing = nexiHoldersOf(customer).find((holder) => holder.provider_id === providerId)
  if (existing) return existing
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const holder = (await payment.createAccountHolder({
    provider_id: providerId,
    context: { customer },
  })) as unknown as AccountHolderRow
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  await link.create({
    [Modules.CUSTOMER]: { customer_id: customer.id },
    [Modules.PAYMENT]: { account_holder_id: holder.id },
  })
  return holder
}

export interface SaveCardRequest {
  providerId?: string
  currencyCode: string
  returnUrl?: string
  /** The page's language: a tag the route checked ("it", "it-IT"), or none for the `language` option. */
  language?: string
  /** The customer's consent to the shop charging the card later (a MIT_UNSCHEDULED contract). */
  allowMerchantCharges?: boolean
}

/** Opens a hosted page that verifies the card (nothing is charged) and saves it once the gateway confirms. */
export async function startSavingCard(
  container: MedusaContainer,
  customerId: string,
  request: SaveCardRequest,
): Promise<{ saved_card: { id: string; state: string; provider_id: string }; hosted_page: string }> {
  const providerId = request.providerId ?? (await cardProviderIdOf(container))
  if (!isNexiCardProviderId(providerId))
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `provider_id: ${providerId} is not a Nexi card provider.`)
  // Medusa's createPaymentMethods rethrows a provider's refusal as a plain Error, which its error
  // handler answers 500 "An unknown error occurred.": what the provider would refuse in the
  // request is refused here first, naming the field (400), and any other failure keeps its message.
  verificationCurrency(request.currencyCode)
  verificationReturnUrl(requireNexiOptions(container, providerId), request.returnUrl)
  const customer = await customerOf(container, customerId)
  const holder = await accountHolderOf(container, customer, providerId)
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  let method: PaymentMethodDTO
  try {
    method = await payment.createPaymentMethods({
      provider_id: providerId,
      context: { account_holder: holder, customer },
      data: {
        currency_code: request.currencyCode,
        return_url: request.returnUrl,
        [LANGUAGE_KEY]: request.language,
        [MERCHANT_CHARGES_KEY]: request.allowMerchantCharges,
      },
    })
  } catch (error) {
    if (error instanceof MedusaError) throw error
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, error instanceof Error ? error.message : String(error))
  }
  const data = method.data as { hosted_page: string; state: string }
  return { saved_card: { id: method.id, state: data.state, provider_id: providerId }, hosted_page: data.hosted_page }
}

/** Only the customer's own cards: any other id is "not found", whoever's it is. */
export async function deleteSavedCard(container: MedusaContainer, customerId: string, cardId: string): Promise<void> {
  const customer = await customerOf(container, customerId)
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  for (const holder of nexiHoldersOf(customer)) {
    const owned = (
      await payment.listPaymentMethods({ provider_id: holder.provider_id, context: { account_holder: holder } })
    ).some((method) => method.id === cardId)
    if (owned) {
      await payment.deletePaymentMethods({
        provider_id: holder.provider_id,
        id: cardId,
        context: { account_holder: holder },
      })
      return
    }
  }
  throw new MedusaError(MedusaError.Types.NOT_FOUND, `id: there is no saved card ${cardId} for this customer.`)
}
