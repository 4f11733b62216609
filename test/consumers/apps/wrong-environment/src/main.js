// The mistake: the Node package imported into a browser bundle.
import { createNodeTools } from '@troupe/node';

document.title = `${createNodeTools({ root: '/' }).length} tools`;
