/**
 * Settings > Nexi: what the gateway has enabled for the merchant, the payments the plugin
 * released by itself, and the two card operations staff start by hand (a MOTO payment, a card
 * verification).
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCard } from "@medusajs/icons"
import { Container, Heading, Text } from "@medusajs/ui"
import { CardVerificationSection } from "../../../components/card-verification-section"
import { DoctorSection } from "../../../components/doctor-section"
import { MotoSection } from "../../../components/moto-section"
import { PaymentMethodsSection } from "../../../components/payment-methods-section"
import { ReleasedPaymentsSection } from "../../../components/released-payments-section"
import { nexiAdminApi } from "../../../lib/nexi-admin-api"
import { useAdminQuery } from "../../../lib/use-admin-query"

const NexiSettingsPage = () => {
  const methods = useAdminQuery("payment-methods", nexiAdminApi.paymentMethods)
  const released = useAdminQuery("released-payments", nexiAdminApi.releasedPayments)
  return (
    <div className="flex flex-col gap-y-3" data-testid="nexi-settings">
      <Container className="px-6 py-4">
        <Heading level="h1">Nexi</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          The Nexi XPay gateway as this store uses it: the configuration check, the payment methods Nexi has enabled,
          the payments the plugin gave back by itself, and card payments staff take by hand.
        </Text>
      </Container>
      <DoctorSection />
      <PaymentMethodsSection query={methods} />
      <ReleasedPaymentsSection query={released} />
      <MotoSection />
      <CardVerificationSection />
    </div>
  )
}

export const config = defineRouteConfig({
  label: "Nexi",
  icon: CreditCard,
})

/** The breadcrumb reads "Settings > Nexi" (the dashboard reads `handle.breadcrumb` of a route). */
export const handle = {
  breadcrumb: () => "Nexi",
}

export default NexiSettingsPage
