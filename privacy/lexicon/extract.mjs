// Writes person_names.txt from the given-name and family-name lists of
// every locale of @faker-js/faker (MIT licence, LICENSE-faker here):
//
//	npm pack @faker-js/faker@10.6.0 && tar xzf faker-js-faker-10.6.0.tgz
//	node privacy/lexicon/extract.mjs package > privacy/lexicon/person_names.txt
//
// One name a line, lower case, sorted, each written once; a name of several
// words (Mary Ann) gives each word. Names of one letter are left out.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dir = process.argv[2] || 'package';
const { allLocales } = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
const names = new Set();
const add = (list) => {
  for (const n of list || []) {
    for (const w of n.toLowerCase().split(/[\s]+/)) {
      if ([...w].length > 1 && !/[{}0-9]/.test(w)) names.add(w);
    }
  }
};
for (const loc of Object.values(allLocales)) {
  const p = loc.person || {};
  for (const part of [p.first_name, p.last_name]) {
    if (Array.isArray(part)) add(part);
    else for (const list of Object.values(part || {})) add(list);
  }
}
const version = JSON.parse(await (await import('node:fs/promises')).readFile(join(dir, 'package.json'), 'utf8')).version;
console.log(`# Given names and family names of every locale of @faker-js/faker ${version} (MIT licence,`);
console.log('# LICENSE-faker), written by extract.mjs: one a line, lower case. Do not edit by hand.');
for (const n of [...names].sort()) console.log(n);
