/** What other features may use of mail flow: the section the domain detail page shows. */
export { MailFlowSection } from './components/mail-flow-section';
