/**
 * How many bits of guessing a secret key is worth, estimated the way a password cracker guesses:
 * a repeated part costs nearly nothing once the first copy is known, a counting run
 * (`0123456789abcdef`, `abcd`, `9876`) costs its start and length, a common word or phrase costs
 * its place in a short list, and only what is left is paid for at the size of the key's alphabet
 * (16 for hex, 64 for base64...). `keyboard cat keyboard cat keyboard cat` is long but worth
 * about 60 bits; 32 random bytes in base64url are worth about 250.
 */

/** Words and fragments people put in keys (password lists, tutorials, this project's own examples). */
const WORDS: readonly string[] = `
keyboard cat dog your my our the bit bits secret secrets key keys change me this replace with
random string long very super supersecret password passw0rd pass word letmein admin root user
login token jwt session cookie sign signing hmac sha hash salt pepper default example sample
demo test testing tests dev development prod production staging local localhost app application
api web server site node koa express next auth hello world foo bar baz qux abc xyz qwerty asdf
zxcv iloveyou monkey dragon shadow master sunshine princess football baseball welcome trustno
freedom whatever insecure unsafe safe strong weak not a an of for and or is it to in on at some
any one two three four new old here there please own value placeholder todo fixme temp tmp
private public config env environment length character characters chars char byte bytes do never
commit use only real fake dummy mock fixture suite cluster worker primary battery plugin docs
doc blog catalog seed console form back contrib scale out docker context sqlite serve another
other someone else security fwkit fw kit lorem ipsum dolor sit amet correct horse staple open
sesame god love sex money magic summer winter spring autumn monday january north south east west
red blue green black white
`
  .trim()
  .split(/\s+/);

const DICTIONARY = new Set(WORDS);
const LONGEST_WORD = Math.max(...WORDS.map((word) => word.length));
/** Bits a listed word costs: its place in the list, and whether it is capitalised. */
const WORD_BITS = Math.log2(WORDS.length) + 1;
/** Bits a word between separators costs when it is not listed: its place in a large dictionary. */
const UNLISTED_WORD_BITS = 17;
/** Bits a counting run costs: where it starts, its direction and step, and its length. */
const RUN_START_BITS = 7;
/** Bits a copy of an earlier part costs: where that part is and how long (at most 8 + 4). */
const COPY_BITS = 10;

/** The size of the alphabet a key seems to be drawn from. */
function alphabetOf(value: string): number {
  if (/^[0-9a-f]+$/.test(value) || /^[0-9A-F]+$/.test(value)) return 16;
  let size = 0;
  if (/[0-9]/.test(value)) size += 10;
  if (/[a-z]/.test(value)) size += 26;
  if (/[A-Z]/.test(value)) size += 26;
  if (/[^0-9a-zA-Z]/.test(value)) size += /[^0-9a-zA-Z_-]/.test(value) ? 33 : 2;
  return Math.max(size, 2);
}

/** Position of a character in a counting order: 0-9 then a-z (so hex counts on from 9 to a). */
function rank(char: string): number | undefined {
  const code = char.toLowerCase().charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 87;
  return undefined;
}

/** Length of the counting run at `at` (`0123`, `abcd`, `9abc`, `fedc`, `2468`, `0000`), 0 when under 3. */
function runAt(value: string, at: number): number {
  const first = rank(value[at] ?? "");
  const second = rank(value[at + 1] ?? "");
  if (first === undefined || second === undefined) return 0;
  // Step 0 is one character repeated (`0000`, `aaaa`).
  const step = second - first;
  if (Math.abs(step) > 2) return 0;
  let end = at + 1;
  while (end + 1 < value.length && rank(value[end + 1]!) === rank(value[end]!)! + step) end++;
  const length = end - at + 1;
  return length >= 3 ? length : 0;
}

/** Length of the longest listed word at `at` (case-insensitive), 0 when none. */
function wordAt(lower: string, at: number): number {
  for (let length = Math.min(LONGEST_WORD, lower.length - at); length >= 1; length--) {
    if (DICTIONARY.has(lower.slice(at, at + length))) return length;
  }
  return 0;
}

/**
 * Length of the word standing alone at `at` (a lower-case or capitalised word with a vowel, between separators or the ends,
 * `sealed` in `key-for-sealed-payloads`), 0 when none: a key written as words is worth its words.
 */
function separatedWordAt(value: string, at: number): number {
  if (at > 0 && /[0-9a-z]/i.test(value[at - 1]!)) return 0;
  // Lower case, capitalised or all capitals: a run of mixed case is what random base64 looks like.
  const word = /^(?:[A-Z]?[a-z]{2,14}|[A-Z]{3,15})/.exec(value.slice(at))?.[0] ?? "";
  const after = value[at + word.length];
  if (word === "" || (after !== undefined && /[0-9a-z]/i.test(after)) || !/[aeiouy]/i.test(word)) return 0;
  return word.length;
}

/** Length of the longest earlier copy of what starts at `at` (4 characters or more), 0 when none. */
function copyAt(value: string, at: number): number {
  let best = 0;
  for (let from = 0; from < at; from++) {
    let length = 0;
    while (at + length < value.length && value[from + length] === value[at + length]) length++;
    if (length > best) best = length;
  }
  return best >= 4 ? best : 0;
}

/**
 * The estimated strength of `secret` in bits (see the file comment). Greedy from the left: at
 * each position the cheapest explanation per character among a copy, a counting run, a listed
 * word and a single character of the key's alphabet.
 */
export function secretBits(secret: string): number {
  const value = secret.trim();
  const lower = value.toLowerCase();
  const charBits = Math.log2(alphabetOf(value));
  let bits = 0;
  let at = 0;
  while (at < value.length) {
    const options: Array<[length: number, cost: number]> = [[1, charBits]];
    const copy = copyAt(value, at);
    if (copy) options.push([copy, COPY_BITS]);
    const run = runAt(value, at);
    if (run) options.push([run, RUN_START_BITS + Math.log2(run)]);
    const word = wordAt(lower, at);
    // A one-letter word is only cheaper than a letter in a key of words (it is otherwise a letter).
    if (word >= 2) options.push([word, WORD_BITS]);
    // A separator used before (the second `-` of `my-secret-key`) is no new choice.
    const char = value[at]!;
    if (/[^0-9a-z]/i.test(char) && value.lastIndexOf(char, at - 1) >= 0) options.push([1, 1]);
    const separated = separatedWordAt(value, at);
    if (separated) options.push([separated, UNLISTED_WORD_BITS]);
    // The option that explains the most for the least; ties go to the longest.
    let [length, cost] = options[0]!;
    for (const [optionLength, optionCost] of options) {
      if (optionCost / optionLength < cost / length) [length, cost] = [optionLength, optionCost];
    }
    bits += Math.min(cost, charBits * length);
    at += length;
  }
  return bits;
}
