/** One labelled value of a payment, laid out like the admin's own detail sections. */
import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"

export function Field(props: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-y-1">
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {props.label}
      </Text>
      <Text as="div" size="small" leading="compact" weight="plus" data-testid={props.testId}>
        {props.children}
      </Text>
    </div>
  )
}
