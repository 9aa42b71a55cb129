/**
 * Text as a key-name search compares it (`KeyListRequest.nameContains`): ASCII letters in lower case, every other
 * character as it is, so that each database folds it the same way.
 */
export const foldAsciiCase = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
