import { Heading, Text } from "@modules/common/components"
import { LocalizedClientLink } from "@modules/common/localized-client-link"

export function Failure({ text }: { text: string }) {
  return (
    <div>
      <Heading>Payment not completed</Heading>
      <Text>{text}</Text>
      <LocalizedClientLink href="/checkout?step=payment">Try again</LocalizedClientLink>
    </div>
  )
}
