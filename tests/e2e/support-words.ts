/**
 * The words the keyboard journeys look for, per language: the British English the spec gives
 * (journey.md, owner-payment.md) and the French of the brand that speaks it (rcfr).
 * Written out here, not read from the catalogues, so that a test proves the page's words.
 * Playwright compares accessible names with their whitespace collapsed, so French's no-break
 * spaces are written as plain spaces.
 */
export type Words = {
  petsHeading: string;
  petName: string;
  species: RegExp;
  petType: RegExp;
  breed: string | RegExp;
  day: string;
  year: string;
  sex: string | RegExp;
  male: string;
  yes: string;
  no: string;
  neutered: string | RegExp;
  injury: string | RegExp;
  nothingPaid: string;
  next: string;
  detailsHeading: string;
  title: string;
  ms: string;
  firstName: string;
  lastName: string;
  ownerDob: RegExp;
  email: string;
  phone: string;
  house: string;
  address: string;
  coverHeading: (name: string) => string;
  guideLongShort: string;
  guideEveryYear: string;
  lifetime: string;
  selected: string;
  chooseType: string;
  select: string;
  levelTab: RegExp;
  limit4000: string;
  continue: string;
  nextPet: (name: string) => string;
  accountName: string;
  sortCode1: string;
  accountNumber: string;
  collectionDay: string;
  ddConfirm: RegExp;
  correct: RegExp;
  goToPayment: string;
  confirmPayment: string;
  progress: string;
};

export const EN: Words = {
  petsHeading: 'Your pets',
  petName: "What is your pet's name?",
  species: /^Is .+ a dog(, cat or rabbit| or cat)\?$/,
  petType: /What type of (dog|cat) is .+\?/,
  breed: /^What breed is .+\?$/,
  day: 'Day',
  year: 'Year',
  sex: /^Is .+ male or female\?$/,
  male: 'Male',
  yes: 'Yes',
  no: 'No',
  neutered: /^Has .+ been neutered\?$/,
  injury: /^Has .+ had any injury or illness\?$/,
  nothingPaid: "I didn't pay anything",
  next: 'Next',
  detailsHeading: 'Your details',
  title: 'Title',
  ms: 'Ms',
  firstName: 'First name',
  lastName: 'Last name',
  ownerDob: /date of birth/i,
  email: 'Email address',
  phone: 'Phone number',
  house: 'House name or number',
  address: 'Your address',
  coverHeading: (name) => `Choose ${name}'s cover`,
  guideLongShort: 'Do you want cover for short-term and long-term ongoing conditions?',
  guideEveryYear: 'Do you want to cover ongoing conditions every year?',
  lifetime: 'Lifetime',
  selected: 'Selected',
  chooseType: 'Choose cover level',
  select: 'Select',
  levelTab: /Cover level/,
  limit4000: '£4,000',
  continue: 'Continue',
  nextPet: (name) => `Next: ${name}'s cover`,
  accountName: 'Account holder name',
  sortCode1: 'Sort code digits 1 of 3',
  accountNumber: 'Account number',
  collectionDay: 'Preferred collection day',
  ddConfirm: /I confirm authority to create this Direct Debit agreement/,
  correct: /Yes, they're correct/,
  goToPayment: 'Go to payment',
  confirmPayment: 'Confirm payment',
  progress: 'Your progress',
};

/** rcfr's French (questions/copy/fr-FR.json with the brand's own words), in euros. */
export const FR: Words = {
  petsHeading: 'Vos animaux',
  petName: 'Quel est le nom de votre animal ?',
  species: /^Est-ce que .+ est un chien ou un chat\s\?$/,
  petType: /Quel type de (chien|chat) est .+\s\?/,
  breed: /^Quelle est la race de .+\s\?$/,
  day: 'Jour',
  year: 'Année',
  sex: /^Est-ce que .+ est un mâle ou une femelle\s\?$/,
  male: 'Mâle',
  yes: 'Oui',
  no: 'Non',
  neutered: /^Est-ce que .+ a été stérilisé\(e\)\s\?$/,
  injury: /^Est-ce que .+ a eu une blessure ou une maladie\s\?$/,
  nothingPaid: "Je n'ai rien payé",
  next: 'Suivant',
  detailsHeading: 'Vos informations',
  title: 'Civilité',
  ms: 'Mme',
  firstName: 'Prénom',
  lastName: 'Nom',
  ownerDob: /date de naissance/i,
  email: 'Adresse e-mail',
  phone: 'Numéro de téléphone',
  house: 'Nom ou numéro de la maison',
  address: 'Votre adresse',
  coverHeading: (name) => `Choisissez la couverture de ${name}`,
  guideLongShort: 'Voulez-vous une couverture pour les affections de courte et de longue durée ?',
  guideEveryYear: 'Voulez-vous couvrir les affections de longue durée chaque année ?',
  lifetime: 'À vie',
  selected: 'Sélectionné',
  chooseType: 'Choisir le niveau de couverture',
  select: 'Sélectionner',
  levelTab: /Niveau de couverture/,
  limit4000: '4 000 €',
  continue: 'Continuer',
  nextPet: (name) => `Suivant : la couverture de ${name}`,
  accountName: 'Nom du titulaire du compte',
  sortCode1: 'Chiffres 1 sur 3 du code guichet',
  accountNumber: 'Numéro de compte',
  collectionDay: 'Jour de prélèvement souhaité',
  ddConfirm: /je confirme l'autorisation de créer ce mandat de prélèvement/,
  correct: /Oui, elles sont exactes/,
  goToPayment: 'Passer au paiement',
  confirmPayment: 'Confirmer le paiement',
  progress: 'Votre progression',
};
