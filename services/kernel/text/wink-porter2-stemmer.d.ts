/** The types of wink-porter2-stemmer, which ships none: one function from a lowercase word to its Porter2 stem. */
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
