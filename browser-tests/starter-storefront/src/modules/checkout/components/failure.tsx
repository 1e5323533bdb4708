import { Button, Heading, Text } from "@modules/common/components"
import { LocalizedClientLink } from "@modules/common/localized-client-link"

/** In the starter's look: the centred column of its not-found pages, the way back as its button. */
export function Failure({ text }: { text: string }) {
  return (
    <div
      className="content-container flex flex-col gap-y-4 items-center justify-center py-24 text-center"
      data-testid="payment-failure"
    >
      <Heading level="h1" className="text-2xl-semi text-ui-fg-base">
        Payment not completed
      </Heading>
      <Text className="txt-medium text-ui-fg-subtle">{text}</Text>
      <LocalizedClientLink href="/checkout?step=payment">
        <Button size="large">Try again</Button>
      </LocalizedClientLink>
    </div>
  )
}
