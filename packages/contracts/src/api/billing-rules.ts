/** Invoice file names, without zod. */

export const invoiceFileName = (invoice: { number: string | null; id: string }): string => `invoice-${invoice.number ?? invoice.id}.pdf`;
