import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** A staff card verification is a write too (`card_verification`): every gateway write goes through the one sender. */
export class Migration20261129010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation', 'mit_charge', 'link_creation', 'link_cancellation', 'apm_payment', 'build_finalize', 'card_verification'));`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "nexi_money_write" where "kind" = 'card_verification';`)
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation', 'mit_charge', 'link_creation', 'link_cancellation', 'apm_payment', 'build_finalize'));`,
    )
  }
}
