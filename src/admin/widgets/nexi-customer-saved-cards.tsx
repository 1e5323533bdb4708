/**
 * "Saved Nexi cards" on the customer page: the customer's cards with their state
 * (GET /admin/nexi/customers/:id/saved-cards, read from the plugin's module, no gateway call),
 * so staff can answer "where did my card go?". Customers without any show nothing.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Container, Heading, Table, Text } from "@medusajs/ui"
import type { NexiCustomerSavedCard } from "../../staff/contract"
import { messageOf } from "../lib/api-errors"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { formatTime } from "../lib/time"
import { useAdminQuery } from "../lib/use-admin-query"

const STATE_LABEL: Record<
  NexiCustomerSavedCard["state"],
  { text: string; color: "green" | "orange" | "red" | "grey" }
> = {
  active: { text: "Saved", color: "green" },
  pending: { text: "Waiting for Nexi", color: "orange" },
  failed: { text: "Not saved", color: "red" },
  unsupported: { text: "No one-click on this circuit", color: "grey" },
  deleted: { text: "Deleted by the customer", color: "grey" },
}

/** What staff read under a deleted card: whether Nexi can still charge its contract. */
function contractEndText(end: NexiCustomerSavedCard["gateway_end"]): string | null {
  if (!end) return null
  switch (end.state) {
    case "ended":
      return "Contract ended at Nexi"
    case "pending":
      return `Contract not ended at Nexi yet; the plugin retries every minute${end.message ? ` (${end.message})` : ""}`
    case "not_requested":
      return "Deleted before the plugin ended contracts: the contract may still be active at Nexi"
  }
}

const NexiCustomerSavedCardsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const query = useAdminQuery(customer.id, () => nexiAdminApi.customerSavedCards(customer.id))
  const cards = query.data?.saved_cards
  if (!query.error && (!cards || cards.length === 0)) return null
  return (
    <Container className="divide-y p-0" data-testid="nexi-customer-saved-cards">
      <div className="px-6 py-4">
        <Heading level="h2">Saved Nexi cards</Heading>
      </div>
      {query.error ? (
        <Text size="small" className="text-ui-fg-error px-6 py-4" role="alert">
          Could not read the saved cards: {messageOf(query.error)}
        </Text>
      ) : null}
      {cards && cards.length > 0 ? (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Card</Table.HeaderCell>
              <Table.HeaderCell>State</Table.HeaderCell>
              <Table.HeaderCell>Saved</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cards.map((card) => (
              <Table.Row key={card.id} data-testid="nexi-saved-card-row">
                <Table.Cell>
                  {card.circuit ?? "Card"} {card.masked_pan ?? ""}
                  <Text size="xsmall" className="text-ui-fg-subtle" data-testid="nexi-saved-card-charges">
                    {card.allows_merchant_charges
                      ? "The customer allows the shop to charge it"
                      : "Only the customer pays with it"}
                  </Text>
                </Table.Cell>
                <Table.Cell>
                  <Badge size="2xsmall" color={STATE_LABEL[card.state].color}>
                    {STATE_LABEL[card.state].text}
                  </Badge>
                  {contractEndText(card.gateway_end) ? (
                    <Text
                      size="xsmall"
                      className={card.gateway_end?.state === "ended" ? "text-ui-fg-subtle" : "text-ui-fg-error"}
                      data-testid="nexi-saved-card-contract"
                    >
                      {contractEndText(card.gateway_end)}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell>
                  {formatTime(card.created_at)}
                  {card.saved_while === "verify" ? " (from the account page)" : " (at checkout)"}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      ) : null}
    </Container>
  )
}

export const config = defineWidgetConfig({
  // The side column, under the addresses. Medusa 2.21's layout composer ignores the
  // ".before"/".after" suffixes and puts a widget at the end of its column: in the main column
  // that is below Metadata and JSON, at the very bottom of the page.
  zone: "customer.details.side",
  id: "medusa-payment-nexi:customer-saved-cards",
})

export default NexiCustomerSavedCardsWidget
