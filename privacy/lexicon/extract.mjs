// Writes person_names.txt from the given-name and family-name lists of
// every locale of @faker-js/faker (MIT licence, LICENSE-faker here), and
// place_names.txt from their city names:
//
//	npm pack @faker-js/faker@10.6.0 && tar xzf faker-js-faker-10.6.0.tgz
//	node privacy/lexicon/extract.mjs package person > privacy/lexicon/person_names.txt
//	node privacy/lexicon/extract.mjs package place > privacy/lexicon/place_names.txt
//
// One name a line, lower case, sorted, each written once; a person's name
// of several words (Mary Ann) gives each word, a place's is kept whole
// (San Diego). Names of one letter are left out.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dir = process.argv[2] || 'package';
const kind = process.argv[3] || 'person';
const { allLocales } = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
const names = new Set();
const add = (list) => {
  for (const n of list || []) {
    for (const w of n.toLowerCase().split(/[\s]+/)) {
      if ([...w].length > 1 && !/[{}0-9]/.test(w)) names.add(w);
    }
  }
};
const addWhole = (list) => {
  for (const n of list || []) {
    const w = n.toLowerCase().trim();
    if ([...w].length > 1 && !/[{}0-9]/.test(w)) names.add(w);
  }
};
for (const loc of Object.values(allLocales)) {
  if (kind === 'place') {
    addWhole((loc.location || {}).city_name);
    continue;
  }
  const p = loc.person || {};
  for (const part of [p.first_name, p.last_name]) {
    if (Array.isArray(part)) add(part);
    else for (const list of Object.values(part || {})) add(list);
  }
}
const version = JSON.parse(await (await import('node:fs/promises')).readFile(join(dir, 'package.json'), 'utf8')).version;
const what = kind === 'place' ? 'City names' : 'Given names and family names';
console.log(`# ${what} of every locale of @faker-js/faker ${version} (MIT licence,`);
console.log('# LICENSE-faker), written by extract.mjs: one a line, lower case. Do not edit by hand.');
for (const n of [...names].sort()) console.log(n);
