/**
 * Card number, expiry and CVV inputs for the MOTO and card verification forms. The browser is
 * told not to remember any of them (autoComplete off), the CVV is masked on screen, and the
 * values live only in the parent form's state, which clears them after every submit.
 */
import { Input, Label } from "@medusajs/ui"
import { useId } from "react"
import type { CardFormValue } from "../lib/card-form"

export function CardFields(props: {
  value: CardFormValue
  onChange: (value: CardFormValue) => void
  cvvOptional: boolean
  testIdPrefix: string
}) {
  const id = useId()
  const { value, onChange, testIdPrefix } = props
  const field = (name: keyof CardFormValue) => (event: React.ChangeEvent<HTMLInputElement>) =>
    onChange({ ...value, [name]: event.target.value })
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-[2fr_1fr_1fr]">
      <div className="flex flex-col gap-y-2">
        <Label htmlFor={`${id}-pan`} size="small" weight="plus">
          Card number
        </Label>
        <Input
          id={`${id}-pan`}
          inputMode="numeric"
          autoComplete="off"
          placeholder="0000 0000 0000 0000"
          value={value.pan}
          onChange={field("pan")}
          data-testid={`${testIdPrefix}-pan`}
        />
      </div>
      <div className="flex flex-col gap-y-2">
        <Label htmlFor={`${id}-expiry`} size="small" weight="plus">
          Expiry (MM/YY)
        </Label>
        <Input
          id={`${id}-expiry`}
          inputMode="numeric"
          autoComplete="off"
          placeholder="12/30"
          value={value.expiry}
          onChange={field("expiry")}
          data-testid={`${testIdPrefix}-expiry`}
        />
      </div>
      <div className="flex flex-col gap-y-2">
        <Label htmlFor={`${id}-cvv`} size="small" weight="plus">
          CVV{props.cvvOptional ? " (optional)" : ""}
        </Label>
        <Input
          id={`${id}-cvv`}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          value={value.cvv}
          onChange={field("cvv")}
          data-testid={`${testIdPrefix}-cvv`}
        />
      </div>
    </div>
  )
}
