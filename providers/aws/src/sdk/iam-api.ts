import type {
  AddRoleToInstanceProfileCommandInput,
  AddRoleToInstanceProfileCommandOutput,
  CreateInstanceProfileCommandInput,
  CreateInstanceProfileCommandOutput,
  DeleteInstanceProfileCommandInput,
  DeleteInstanceProfileCommandOutput,
  GetInstanceProfileCommandInput,
  GetInstanceProfileCommandOutput,
  RemoveRoleFromInstanceProfileCommandInput,
  RemoveRoleFromInstanceProfileCommandOutput,
} from '@aws-sdk/client-iam';

/**
 * The IAM calls the provider makes, and no others: the instance profile of a NodeClass with
 * `spec.role` is created, kept holding that role, and deleted with the NodeClass; a
 * `spec.instanceProfile` is only read. The aggregated `IAM` client satisfies it structurally.
 */
export interface IamApi {
  getInstanceProfile(input: GetInstanceProfileCommandInput): Promise<GetInstanceProfileCommandOutput>;
  createInstanceProfile(
    input: CreateInstanceProfileCommandInput,
  ): Promise<CreateInstanceProfileCommandOutput>;
  addRoleToInstanceProfile(
    input: AddRoleToInstanceProfileCommandInput,
  ): Promise<AddRoleToInstanceProfileCommandOutput>;
  removeRoleFromInstanceProfile(
    input: RemoveRoleFromInstanceProfileCommandInput,
  ): Promise<RemoveRoleFromInstanceProfileCommandOutput>;
  deleteInstanceProfile(
    input: DeleteInstanceProfileCommandInput,
  ): Promise<DeleteInstanceProfileCommandOutput>;
}
