import { currencies, paidPlans, planTypes } from './plans.js';
import { z } from './zod.js';

/** The plan values as schemas, apart from the rules: the web app's shell reads plans.ts without taking zod. */
export const planTypeSchema = z.enum(planTypes);
export const paidPlanSchema = z.enum(paidPlans);
export const currencySchema = z.enum(currencies);
