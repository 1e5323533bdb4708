/** One labelled value of a payment, laid out like the admin's own detail sections. */
import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** `wide`: the value takes the whole row (a long id in the side column's two-column grid). */
export function Field(props: { label: string; testId?: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`flex min-w-0 flex-col gap-y-1${props.wide ? " col-span-2" : ""}`}>
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {props.label}
      </Text>
      <Text as="div" size="small" leading="compact" weight="plus" data-testid={props.testId}>
        {props.children}
      </Text>
    </div>
  )
}
