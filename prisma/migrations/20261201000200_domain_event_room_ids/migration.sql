-- A list column as Prisma shapes it (nullable in SQL; the code always writes one, empty for the hotel as a whole).
ALTER TABLE "DomainEvent" ALTER COLUMN "roomIds" DROP NOT NULL;
