/**
 * Card number, expiry and CVV inputs for the MOTO and card verification forms. The browser is
 * told not to remember any of them (autoComplete off), the CVV is masked on screen unless staff
 * press "Show" (to check what the customer read out), and the values live only in the parent
 * form's state, which clears them after every submit.
 *
 * The CVV has its own show/hide button: Medusa's password input brings one labelled "Show
 * password", in a box after the input, which is hidden here.
 */
import { Button, Input, Label } from "@medusajs/ui"
import { useId, useState } from "react"
import type { CardFormValue } from "../lib/card-form"

export function CardFields(props: {
  value: CardFormValue
  onChange: (value: CardFormValue) => void
  cvvOptional: boolean
  testIdPrefix: string
}) {
  const id = useId()
  const [cvvShown, setCvvShown] = useState(false)
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
        <div className="flex items-center justify-between">
          <Label htmlFor={`${id}-cvv`} size="small" weight="plus">
            CVV{props.cvvOptional ? " (optional)" : ""}
          </Label>
          <Button
            type="button"
            size="small"
            variant="transparent"
            className="h-5 px-1"
            aria-label={cvvShown ? "Hide CVV" : "Show CVV"}
            aria-controls={`${id}-cvv`}
            onClick={() => setCvvShown((shown) => !shown)}
            data-testid={`${testIdPrefix}-cvv-toggle`}
          >
            {cvvShown ? "Hide" : "Show"}
          </Button>
        </div>
        {/* Remounted on each toggle: Medusa's input keeps the type it was first given. */}
        <div className="[&_input+div]:hidden" key={cvvShown ? "shown" : "masked"}>
          <Input
            id={`${id}-cvv`}
            type={cvvShown ? "text" : "password"}
            inputMode="numeric"
            autoComplete="off"
            value={value.cvv}
            onChange={field("cvv")}
            data-testid={`${testIdPrefix}-cvv`}
          />
        </div>
      </div>
    </div>
  )
}
