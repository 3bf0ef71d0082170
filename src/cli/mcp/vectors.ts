export { vectorFor } from '../../engine/embed/vector-for.ts';
