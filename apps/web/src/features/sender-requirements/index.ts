/** What other features may use of the sender requirements: the card the domain detail page shows. */
export { SenderRequirementsCard } from './components/sender-requirements-card';
