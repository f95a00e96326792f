import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, mailTo, screenshot, watchConsole } from './support';
import { press } from './support-keys';
import { coverByKeyboard, detailsByKeyboard, directDebitByKeyboard, petByKeyboard } from './support-journey';
import { FR } from './support-words';

// Rcfr entirely in French with € prices. journey.md §1 ("one brand has a
// second language (French, with EUR). A language chooser shows only when a brand has more than
// one language"); owner-payment.md §9 Currency (EUR in the French variant; prices to 2 decimals
// unless whole). rcfr speaks French first, English second.

/** Words that only an English sentence would carry. */
const ENGLISH = /\b(the|your|you|please|and|with|cover|pets?|continue|next|back)\b/i;

/**
 * The page is in French: its lang, and no English sentence and no pound anywhere a customer reads
 * it (header, step bar, main, footer). Names stay names: the brand, the breed, the regulator.
 */
async function expectFrench(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
  const words = (await page.locator('body').innerText())
    .replace(/Pawpath Insurance Services Limited|Pawpath Underwriting Limited|Financial Conduct Authority|Refuge Compagnons|Beagle|English|The Green/g, '');
  expect(words, 'no English on a French page').not.toMatch(ENGLISH);
  expect(words, 'prices in euros').not.toContain('£');
  expect(words, 'the 24-hour clock').not.toMatch(/\d(am|pm)\b/);
}

async function onPage(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expectFrench(page);
  await expectAccessible(page);
}

test('rcfr: a dog bought by Direct Debit entirely in French, priced in euros', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const email = `rcfr-fr-${Date.now()}@example.com`;
  await page.goto('/quote?brand=rcfr');
  await expect(page).toHaveTitle('Vos animaux – Refuge Compagnons');
  await onPage(page, FR.petsHeading);
  // The brand's frame, in French (journey.md §2 Shell).
  await expect(page.getByRole('link', { name: "Page d'accueil de Refuge Compagnons (ouvre le site de la marque)" })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Appelez-nous au 0808 157 0700' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Refuge Compagnons est un nom commercial de Refuge Compagnons Assurances Limited');
  // The chooser: French is read, English offered, each named in itself.
  const chooser = page.getByRole('navigation', { name: 'Langue' });
  await expect(chooser.getByText('Français')).toHaveAttribute('aria-current', 'true');
  await expect(chooser.getByRole('button', { name: 'English' })).toHaveAttribute('lang', 'en-GB');
  // journey.md §5 pet_cost: the euro sign follows the amount in French.
  await expect(page.locator('section.pet').first().locator('.currency__affix--after')).toHaveText('€');
  await screenshot(page, testInfo, 'rcfr-fr-pets');

  await petByKeyboard(page, 0, { name: 'Rex', species: 'Chien', type: 'De race', breed: ['beag', 'Beagle'] }, FR);
  await press(page, page.getByRole('button', { name: FR.next }));
  await onPage(page, FR.detailsHeading);
  await detailsByKeyboard(page, email, FR);
  await press(page, page.getByRole('button', { name: FR.next }));

  // The cover page: every price in euros, written the French way ("12,34 €").
  await expect(page.getByRole('heading', { name: FR.coverHeading('Rex') })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Prix pour Rex' })).toContainText(/\d+,\d\d\s€/);
  await expectFrench(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rcfr-fr-cover');
  await coverByKeyboard(page, ['Rex'], FR);

  await onPage(page, 'Vérifiez votre devis');
  // The pet's cover as the review words it: "À vie 4 000 €".
  await expect(page.getByRole('main')).toContainText(/À vie 4\s000\s€/);
  await screenshot(page, testInfo, 'rcfr-fr-review');
  // The documents it links to are in French too (owner-payment.md §3 Documents).
  const wording = await page.getByRole('link', { name: /^Conditions générales/ }).first().getAttribute('href');
  const documentPage = await (await page.request.get(wording ?? '')).text();
  expect(documentPage).toContain('<html lang="fr-FR">');
  expect(documentPage).toContain('Qu&#x27;est-ce qui est assuré');
  expect(documentPage).not.toContain('£');
  await press(page, page.getByRole('button', { name: FR.continue }));

  await onPage(page, 'Juste avant de payer...');
  await press(page, page.getByRole('checkbox', { name: FR.correct }), 'Space');
  await press(page, page.getByRole('button', { name: FR.goToPayment }));

  await onPage(page, 'Paiement');
  await expect(page.getByRole('main')).toContainText(/\d+,\d\d\s€/);
  await directDebitByKeyboard(page, FR);
  await press(page, page.getByRole('button', { name: FR.confirmPayment }));
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  await onPage(page, 'Vérifiez vos coordonnées bancaires');
  await press(page, page.getByRole('button', { name: FR.continue }));

  await expect(page).toHaveURL(/\/quote\/confirmation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Merci pour votre souscription' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Rex' })).toContainText(/PETRC\d+/);
  await expect(page.getByRole('region', { name: 'Rex' })).toContainText(/\d+,\d\d\s€/);
  await expectFrench(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rcfr-fr-confirmation');

  // owner-payment.md §4 Confirmation: the email in French, its amounts in euros.
  const mail = await mailTo(email);
  expect(mail[0].subject).toBe('Bienvenue chez Refuge Compagnons\u00a0: votre assurance animaux est confirmée');
  expect(mail[0].text).toMatch(/^Bonjour Ada,/);
  expect(mail[0].text).toMatch(/À vie 4\s000\s€/);
  expect(mail[0].text).not.toContain('£');
  expect(problems()).toEqual([]);
});

test('rcfr: the language chooser switches to English and back by keyboard, prices still in euros', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote?brand=rcfr');
  await expect(page.getByRole('heading', { level: 1, name: FR.petsHeading })).toBeVisible();
  await press(page, page.getByRole('navigation', { name: 'Langue' }).getByRole('button', { name: 'English' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
  await expect(page).toHaveTitle('Your pets – Refuge Compagnons');
  const chooser = page.getByRole('navigation', { name: 'Language' });
  await expect(chooser.getByText('English')).toHaveAttribute('aria-current', 'true');
  // In English the euro sign leads the amount.
  await expect(page.locator('section.pet').first().locator('.currency__affix:not(.currency__affix--after)')).toHaveText('€');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rcfr-en-pets');
  await press(page, chooser.getByRole('button', { name: 'Français' }));
  await expect(page.getByRole('heading', { level: 1, name: FR.petsHeading })).toBeVisible();
  await expectFrench(page);
  expect(problems()).toEqual([]);
});

test('an English-only brand shows no language chooser', async ({ page }) => {
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Language' })).toHaveCount(0);
});

// journey.md §2 Routes and Shell: rcfr's pages around the journey, in French, axe-clean.
test('rcfr: privacy, terms, contact, retrieve-quote and not-found pages in French', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote?brand=rcfr');
  await expect(page.getByRole('heading', { level: 1, name: FR.petsHeading })).toBeVisible();
  const footer = page.getByRole('contentinfo');
  for (const [link, title] of [
    ['Confidentialité et cookies', 'Politique de confidentialité et cookies'],
    ["Conditions d'intermédiation", "Conditions d'intermédiation"],
    ['Nous contacter et FAQ', 'Nous contacter et FAQ'],
  ]) {
    await press(page, footer.getByRole('link', { name: link }));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeFocused();
    await expect(page).toHaveTitle(`${title} – Refuge Compagnons`);
    await expectFrench(page);
    await expectAccessible(page);
    await screenshot(page, testInfo, `rcfr-fr-${link.split(' ')[0].toLowerCase()}`);
  }
  await press(page, page.getByText('Quand ma couverture commence-t-elle ?'));
  await expect(page.getByText(/À la date que vous choisissez/)).toBeVisible();
  expect(problems()).toEqual([]);
  // Retrieve a quote (journey.md §2 Routes), its field errors in French too.
  await page.goto('/quote/retrieve-quote');
  await onPage(page, 'Retrouver votre devis');
  await press(page, page.getByRole('button', { name: 'Retrouver le devis' }));
  await expect(page.getByText('Ce champ est obligatoire').first()).toBeVisible();
  await expectFrench(page);
  await expectAccessible(page);
  // The browser logs the 404 itself; the page is the brand's, in French.
  await page.goto('/quote/pas-de-page');
  await onPage(page, 'Page introuvable');
});
