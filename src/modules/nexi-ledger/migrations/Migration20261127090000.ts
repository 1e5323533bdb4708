import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Writes of three new kinds: a merchant-initiated charge of a saved card, and a payment link created or cancelled. */
export class Migration20261127090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation', 'mit_charge', 'link_creation', 'link_cancellation'));`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "nexi_money_write" where "kind" in ('mit_charge', 'link_creation', 'link_cancellation');`)
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation'));`,
    )
  }
}
